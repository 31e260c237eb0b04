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
})
