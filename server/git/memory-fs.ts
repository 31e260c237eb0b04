import { createFsFromVolume, Volume } from 'memfs'
import type { GitFs } from './object-workspace.ts'

/**
 * A fresh in-memory file system for one workspace. memfs runs unchanged on Node, Deno and Bun (lightning-fs needs a
 * navigator.locks shim on Node and Bun and leaves a 600 s timer per lock wait); see bench/agent for the figures.
 */
export function memoryFs(): GitFs {
  return createFsFromVolume(new Volume()) as unknown as GitFs
}
