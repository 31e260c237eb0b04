// PGlite's WebAssembly module (pglite.wasm, 9 MB), compiled once per process. The Node entry starts the compile before
// the rest of the server loads, so V8's background thread compiles while the main thread parses our modules;
// openPgliteStore hands the module to PGlite, which otherwise reads and compiles pglite.wasm itself when it opens.
import { readFileSync } from 'node:fs'

let compiling: Promise<WebAssembly.Module | undefined> | undefined

/** Starts compiling pglite.wasm (once); the promise holds undefined where the file cannot be found or compiled. */
export function compilePgliteWasm(): Promise<WebAssembly.Module | undefined> {
  compiling ??= (async () => {
    try {
      // Read at once (5-10 ms): an asynchronous read goes on in 512 KB steps, each waiting for a turn of the main
      // thread, which is busy loading modules, so the compile started only once they were loaded.
      const bytes = readFileSync(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')))
      return await WebAssembly.compile(bytes)
    } catch {
      return undefined // PGlite then loads its own, as it does on Deno and Bun
    }
  })()
  return compiling
}

/** The compile compilePgliteWasm started, or undefined if nothing started one. */
export const pgliteWasmCompiling = (): Promise<WebAssembly.Module | undefined> | undefined => compiling
