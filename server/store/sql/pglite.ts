import type { Store } from '../types.ts'
export async function openPgliteStore(_dir: string): Promise<Store> {
  throw new Error('the pglite store is not built yet; use DOCENT_STORE=memory')
}
