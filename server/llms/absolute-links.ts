import { splitFencedCode } from '../search/code-fences.ts'

// No lookaround, so recheck's automaton proves both linear (with one it falls back to fuzzing, whose verdict varies).
const INLINE_LINK = /\]\((\/[^)\s]*)/g
/**
 * A definition's label is on one line and its link on that line or the next; `^\s*` and `[^\]]+` ran over lines, and
 * from each line's start read the rest of the text (40,000 blank lines: 2.7 s).
 */
const DEFINITION = /^([ \t]*\[[^[\]\r\n]+\]:[ \t]*(?:\r?\n[ \t]*)?)(\/\S*)/gm
/** `/sdks/go`, not `//cdn.example/x` (another host). */
const isRootRelative = (path: string) => !path.startsWith('//')

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
            .replace(INLINE_LINK, (link, path: string) => (isRootRelative(path) ? `](${resolve(path)}` : link))
            .replace(DEFINITION, (definition, label: string, path: string) =>
              isRootRelative(path) ? `${label}${resolve(path)}` : definition,
            ),
    )
    .join('\n')
}
