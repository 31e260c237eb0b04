import { createFsFromVolume, Volume } from 'memfs'
import { gitFs } from './git-fs.ts'
import type { GitFs } from './object-workspace.ts'

/**
 * A fresh in-memory file system for one workspace. memfs runs unchanged on Node, Deno and Bun (lightning-fs needs a
 * navigator.locks shim on Node and Bun and leaves a 600 s timer per lock wait); see bench/agent for the figures.
 */
export function memoryFs(): GitFs {
  return gitFs(createFsFromVolume(new Volume()).promises)
}
