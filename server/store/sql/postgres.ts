import type { Store } from '../types.ts'
export async function openPostgresStore(_url: string): Promise<Store> {
  throw new Error('the postgres store is not built yet; use DOCENT_STORE=memory')
}
