import { html, type TemplateResult } from 'lit'

/**
 * A small syntax highlighter for the code in answers (JavaScript/TypeScript, Python, Go, shell, JSON, YAML):
 * comments, strings, numbers and keywords as spans. Text goes in through Lit, so highlighting cannot inject markup.
 */
const KEYWORDS = new Set(
  (
    'const let var function return if else for while do import from export default class extends new await async try catch finally throw ' +
    'typeof instanceof of in true false null undefined this def elif is not and or None True False with as lambda pass yield ' +
    'package func type struct interface go defer select case switch break continue nil map chan range'
  ).split(' '),
)
const HASH_COMMENTS = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'console',
  'python',
  'py',
  'yaml',
  'yml',
  'toml',
  'ruby',
  'rb',
  'dockerfile',
  'env',
])
const SHELLS = new Set(['bash', 'sh', 'shell', 'zsh', 'console'])

export function highlight(code: string, lang: string | undefined): Array<TemplateResult | string> {
  const language = (lang ?? '').toLowerCase()
  const comment = HASH_COMMENTS.has(language) ? String.raw`#[^\n]*` : String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`
  // Linear on any text (answers carry code nobody vetted): an unclosed comment or string runs to the end of the code
  // (a string: of its line) instead of failing, and a line's first word is found on its own line. A pattern that had
  // to fail and retry from the next quote, `/*` or newline read the rest of the text from each (40,000 `"\` took 4.7 s).
  const pattern = new RegExp(
    String.raw`(${comment})|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|\`(?:[^\`\\]|\\[\s\S])*\`?)|(\b\d+(?:\.\d+)?\b)|(^|\n)([ \t]*[\w./-]+)|([A-Za-z_$][\w$]*)`,
    'g',
  )
  const out: Array<TemplateResult | string> = []
  let last = 0
  for (const match of code.matchAll(pattern)) {
    const [text, commentText, stringText, numberText, lineStart, firstWord, word] = match
    const at = match.index
    if (at > last) out.push(code.slice(last, at))
    if (commentText) out.push(html`<span class="tok-comment">${text}</span>`)
    else if (stringText) out.push(html`<span class="tok-string">${text}</span>`)
    else if (numberText) out.push(html`<span class="tok-number">${text}</span>`)
    else if (firstWord !== undefined) {
      // Shell: the command at the start of a line. Elsewhere the first word is an ordinary word.
      out.push(lineStart ?? '')
      const trimmed = firstWord.trimStart()
      const lead = firstWord.slice(0, firstWord.length - trimmed.length)
      if (SHELLS.has(language)) out.push(lead, html`<span class="tok-command">${trimmed}</span>`)
      else out.push(lead, KEYWORDS.has(trimmed) ? html`<span class="tok-keyword">${trimmed}</span>` : trimmed)
    } else if (word && KEYWORDS.has(word) && !SHELLS.has(language)) out.push(html`<span class="tok-keyword">${word}</span>`)
    else out.push(text)
    last = at + text.length
  }
  if (last < code.length) out.push(code.slice(last))
  return out
}
