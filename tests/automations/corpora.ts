import { existsSync } from 'node:fs'
import { readDirectory } from '../../server/search/sources/directory.ts'

const MINTLIFY = '../shared/corpora/mintlify-docs'

/** Whether the Mintlify corpus is here; when not, says so once for the suite that needs it. */
export function mintlifyPresent(suite: string): boolean {
  const present = existsSync(`${MINTLIFY}/docs.json`)
  if (!present) console.log(`skipping the Mintlify ${suite} tests: ${MINTLIFY} is absent`)
  return present
}

/** The Mintlify docs' English pages and snippets: the translations repeat them, and parsing all four languages takes minutes here. */
export async function mintlifyEnglish(): Promise<Map<string, string>> {
  const all = await readDirectory(MINTLIFY)
  return new Map([...all.files].filter(([path]) => !/^(snippets\/)?(fr|es|zh)\//.test(path)))
}
