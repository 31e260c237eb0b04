import type { ExportFormat } from '../../shared/analytics.ts'

/** Rows read from the store per page while exporting: memory holds one page, whatever the range. */
export const EXPORT_PAGE = 500

export interface ExportSource<T> {
  /** File name without extension. */
  name: string
  columns: string[]
  /** One page of items after `cursor`; `nextCursor` null at the end. */
  page(cursor: string | undefined): Promise<{ items: T[]; nextCursor: string | null }>
  /** An item as the JSON API shows it: one NDJSON line, and the CSV cells by column unless `csvRow` flattens it. */
  row(item: T): Record<string, unknown>
  csvRow?(item: T): Record<string, unknown>
}

const CONTENT_TYPES: Record<Exclude<ExportFormat, 'json'>, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
}

/**
 * A CSV cell (RFC 4180). A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a
 * leading `'`: reader questions are untrusted text and exports are opened in spreadsheets. So does any cell made of
 * text, flattened lists included (a source's title is a docs page's, which anyone who can get a page into the docs
 * writes); only a number keeps its sign.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((item) => (typeof item === 'object' && item ? Object.values(item).join(' ') : String(item))).join('; ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value)
  if (/^[=+\-@\t\r]/.test(text) && typeof value !== 'number') text = `'${text}`
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * The whole list as a streamed CSV or NDJSON download: pages are read from the store only as the client reads, so a
 * year of data never sits in memory and a client that stops reading stops the reads. The first page is read before
 * the response is made: a request the store refuses gets its error status, not a 200 and a cut-off file.
 */
export async function exportResponse<T>(format: Exclude<ExportFormat, 'json'>, source: ExportSource<T>): Promise<Response> {
  const encoder = new TextEncoder()
  const first = await source.page(undefined)
  let cursor = first.nextCursor
  const lines = (items: T[]) =>
    items.map((item) => {
      if (format === 'ndjson') return `${JSON.stringify(source.row(item))}\n`
      const row = source.csvRow ? source.csvRow(item) : source.row(item)
      return `${source.columns.map((column) => csvCell(row[column])).join(',')}\r\n`
    })
  /** Sends a page's text, and ends the file after the last page. */
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    if (text) controller.enqueue(encoder.encode(text))
    if (cursor === null) controller.close()
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const header = format === 'csv' ? `${source.columns.join(',')}\r\n` : ''
      send(controller, header + lines(first.items).join(''))
    },
    async pull(controller) {
      const page = await source.page(cursor ?? undefined)
      cursor = page.nextCursor
      send(controller, lines(page.items).join(''))
    },
  })
  return new Response(body, {
    headers: {
      'content-type': CONTENT_TYPES[format],
      'content-disposition': `attachment; filename="${source.name}.${format}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}
