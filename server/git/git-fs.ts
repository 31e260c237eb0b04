import type { GitFs } from './object-workspace.ts'

/**
 * isomorphic-git wraps the file system it is given anew on every call, and probes it twice by calling `readFile()` with
 * no path, for an error it then drops. Each such error builds a stack trace (with source maps, where a runtime reads
 * them): reading 100,000 files of a repository spent 10 of its 18 s on those errors, with the event loop held all the
 * while. The probe is answered with one rejection made once.
 */
const PROBE_ANSWER = Promise.reject(new Error('readFile needs a path'))
PROBE_ANSWER.catch(() => undefined)

/** A promise file system (`fs.promises`, memfs's `promises`) as isomorphic-git takes it, with its probe answered cheaply. */
export function gitFs(promises: object): GitFs {
  const methods = Object.fromEntries(
    Object.entries(promises).map(([name, value]) => [name, typeof value === 'function' ? value.bind(promises) : value]),
  ) as Record<string, (...args: unknown[]) => Promise<unknown>>
  const readFile = methods.readFile!
  return {
    promises: { ...methods, readFile: (...args: unknown[]) => (args.length === 0 ? PROBE_ANSWER : readFile(...args)) },
  } as unknown as GitFs
}
