import { splitFencedCode } from '../search/code-fences.ts'

/**
 * Makes the site's root-relative links (`[x](/sdks/go)`, `[x]: /sdks/go`) absolute, outside code blocks: markdown
 * handed to AI tools is read away from the site, and a per-project `.md` lives under `/docs/{domain}/`, where a
 * root-relative link would point at another project's pages.
 */
export function absoluteLinks(markdown: string, resolve: (path: string) => string): string {
  return splitFencedCode(markdown)
    .map(({ code, text }) =>
      code
        ? text
        : text
            .replace(/\]\((\/(?!\/)[^)\s]*)/g, (_, path: string) => `](${resolve(path)}`)
            .replace(/^(\s*\[[^\]]+\]:\s*)(\/(?!\/)\S*)/gm, (_, label: string, path: string) => `${label}${resolve(path)}`),
    )
    .join('\n')
}
