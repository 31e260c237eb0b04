import type { Store } from './types.ts'
export async function openDenoKvStore(_path?: string): Promise<Store> {
  throw new Error('the denokv store is not built yet; use DOCENT_STORE=memory')
}
