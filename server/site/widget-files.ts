// The one place the site reads from disk: the built widget (`widget/dist`). Loaded by dynamic import only when a
// widget file is requested, so the portable core imports no `node:` module (Node, Deno and Bun all provide node:fs).
import { readFile } from 'node:fs/promises'

const DIST = new URL('../../widget/dist/', import.meta.url)

/** `docent.js`, `docent.mjs` or `chunks/<name>.mjs`; anything else (`..`, absolute paths) is not a widget file. */
export const WIDGET_FILE = /^(?:chunks\/)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.m?js(?:\.map)?$/

export async function readWidgetFile(name: string): Promise<Uint8Array | null> {
  if (!WIDGET_FILE.test(name)) return null
  try {
    return new Uint8Array(await readFile(new URL(name, DIST)))
  } catch {
    return null
  }
}
