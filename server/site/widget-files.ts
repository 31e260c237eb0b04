// The built widget (`widget/dist`) at `/widget/*`, served by the shared static-files handler: its precompressed
// copies by Accept-Encoding, hashed chunks cached for good, the entry files revalidated by ETag (so a rebuilt widget
// never pairs a cached entry with chunks that are gone).
import { staticFiles } from '../http/static-files.ts'

/** `docent.js`, `docent.mjs` or `chunks/<name>.mjs`; anything else (`..`, absolute paths) is not a widget file. */
export const WIDGET_FILE = /^(?:chunks\/)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.m?js(?:\.map)?$/

export const serveWidgetFile = staticFiles({
  root: new URL('../../widget/dist/', import.meta.url),
  name: WIDGET_FILE,
  immutable: (path) => path.startsWith('chunks/'),
  headers: {
    // The widget runs on other sites' pages: its ES modules are fetched cross-origin.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  },
})
