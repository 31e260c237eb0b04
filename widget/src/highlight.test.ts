import { describe, expect, it } from 'vitest'
import { highlight } from './highlight.ts'

type Piece = string | { strings: TemplateStringsArray; values: unknown[] }
const classes = (pieces: Piece[]) =>
  pieces
    .filter((p): p is Exclude<Piece, string> => typeof p !== 'string')
    .map((p) => `${p.strings[0]!.match(/tok-(\w+)/)![1]}:${String(p.values[0])}`)
const text = (pieces: Piece[]) => pieces.map((p) => (typeof p === 'string' ? p : String(p.values[0]))).join('')

describe('highlight', () => {
  it('marks comments, strings, numbers and keywords, and keeps the code text intact', () => {
    const code = 'const flag = client.variation("new-checkout", false) // default off\nawait close(30)'
    const pieces = highlight(code, 'js') as Piece[]
    expect(text(pieces)).toBe(code)
    expect(classes(pieces)).toEqual([
      'keyword:const',
      'string:"new-checkout"',
      'keyword:false',
      'comment:// default off',
      'keyword:await',
      'number:30',
    ])
  })

  it('marks shell commands and # comments; markup in code stays text', () => {
    const code = '# install\nnpm install @lumenflags/js\n<img src=x onerror=alert(1)>'
    const pieces = highlight(code, 'bash') as Piece[]
    expect(text(pieces)).toBe(code)
    expect(classes(pieces)).toEqual(['comment:# install', 'command:npm', 'number:1'])
  })

  it('an unclosed comment or string runs to the end of the code or of its line, and a blank line keeps the command after it', () => {
    const code = 'const a = "open\nlet b = 1 /* open'
    const pieces = highlight(code, 'ts') as Piece[]
    expect(text(pieces)).toBe(code)
    expect(classes(pieces)).toEqual(['keyword:const', 'string:"open', 'keyword:let', 'number:1', 'comment:/* open'])
    const script = 'echo start\n\n  npm test'
    expect(classes(highlight(script, 'bash') as Piece[])).toEqual(['command:echo', 'command:npm'])
  })

  it('keeps the text intact on long runs of quotes, escapes, comment openers and blank lines', () => {
    for (const code of ['"\\'.repeat(50_000), "'\n\t".repeat(50_000), '/*'.repeat(50_000), '`\\'.repeat(50_000)]) {
      for (const language of ['js', 'bash']) expect(text(highlight(code, language) as Piece[])).toBe(code)
    }
  })
})
