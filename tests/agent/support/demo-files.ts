import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'

/** Every file of a docs folder as `{ path: text }` (paths relative, `/`-separated), for in-memory workspaces. */
export async function readDocsFolder(root = 'demo/docs'): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else files[relative(root, path).split('\\').join('/')] = await readFile(path, 'utf8')
    }
  }
  await walk(root)
  return files
}
