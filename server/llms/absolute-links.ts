/**
 * Makes the site's root-relative links (`[x](/sdks/go)`, `[x]: /sdks/go`) absolute, outside code blocks: markdown
 * handed to AI tools is read away from the site, and a per-project `.md` lives under `/docs/{domain}/`, where a
 * root-relative link would point at another project's pages.
 */
export function absoluteLinks(markdown: string, resolve: (path: string) => string): string {
  let fence: string | undefined
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
      if (marker) {
        if (fence === undefined) fence = marker[0]
        else if (marker[0] === fence) fence = undefined
        return line
      }
      if (fence !== undefined) return line
      return line
        .replace(/\]\((\/(?!\/)[^)\s]*)/g, (_, path: string) => `](${resolve(path)}`)
        .replace(/^(\s*\[[^\]]+\]:\s*)(\/(?!\/)\S*)/, (_, label: string, path: string) => `${label}${resolve(path)}`)
    })
    .join('\n')
}
