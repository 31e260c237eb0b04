/**
 * Prompt shapes that made the offline editor's old parser backtrack: an instruction's verb followed by a long run of
 * spaces, tabs, quotes or keywords. Used by the parser's tests, the /healthz test and bench/agent-prompts.
 */
export const VERBS = [
  'replace',
  'change',
  'rename',
  'substitute',
  'replace "a" with "b" in',
  'add a page',
  'create a new page titled "x"',
  'add a page "t" in the "g" group saying',
  'append a section "h" to',
  'append a section "h" to a',
  'fix the typo',
  'fix the misspelling "teh"',
  'fix typos in',
  'please',
]
export const FILLS = [
  ' ',
  '\t',
  '\n',
  '"',
  "'",
  '“',
  '‘',
  '`',
  ' with',
  ' to',
  ' in',
  ' saying',
  ', with the text',
  ' everywhere',
  ' a',
  ' "a"',
  '->',
  ':',
]

export function promptOfShape(verb: string, fill: string, length = 20_000): string {
  const body = verb + fill.repeat(Math.ceil(length / fill.length))
  return `${body.slice(0, length - 1)}x`
}
