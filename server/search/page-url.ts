/** The URL path a Mintlify-style site serves a page at: `sdks/javascript` → `/sdks/javascript`, `index` → `/`, `cli/index` → `/cli`. */
export function pageUrl(path: string): string {
  const parts = path.split('/').filter(Boolean)
  if (parts.at(-1) === 'index') parts.pop()
  return `/${parts.join('/')}`
}
