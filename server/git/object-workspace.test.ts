import git from 'isomorphic-git'
import { describe, expect, test } from 'vitest'
import { memoryFs } from './memory-fs.ts'
import { ObjectWorkspace } from './object-workspace.ts'

/** A bare repository in memory whose one commit holds `entries` (mode 120000: a symbolic link to the text). */
async function repository(entries: Array<{ path: string; text: string; mode?: string }>) {
  const fs = memoryFs()
  const gitdir = '/repo.git'
  await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' })
  const tree = async (prefix: string): Promise<string> => {
    const here = entries.filter((entry) => entry.path.startsWith(prefix))
    const names = [...new Set(here.map((entry) => entry.path.slice(prefix.length).split('/')[0]!))]
    const items = await Promise.all(
      names.map(async (name) => {
        const file = here.find((entry) => entry.path === prefix + name)
        if (file) {
          const oid = await git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode(file.text) })
          return { mode: file.mode ?? '100644', path: name, oid, type: 'blob' as const }
        }
        return { mode: '040000', path: name, oid: await tree(`${prefix}${name}/`), type: 'tree' as const }
      }),
    )
    return git.writeTree({ fs, gitdir, tree: items })
  }
  const author = { name: 'Test', email: 'test@example.com', timestamp: 0, timezoneOffset: 0 }
  const head = await git.writeCommit({
    fs,
    gitdir,
    commit: { message: 'base\n', tree: await tree(''), parent: [], author, committer: author },
  })
  const workspace = new ObjectWorkspace({ fs, gitdir, head, now: () => new Date(0), push: async () => {} })
  const treeOf = async (commit: string) => {
    const paths: string[] = []
    await git.walk({
      fs,
      gitdir,
      trees: [git.TREE({ ref: commit })],
      map: async (path, [entry]) => {
        if (path !== '.' && (await entry!.type()) !== 'tree') paths.push(`${path} ${await entry!.mode()}`)
        return true
      },
    })
    return paths.sort()
  }
  return { workspace, treeOf }
}

describe('the workspace and symbolic links', () => {
  test('a link is neither followed nor replaced: writing at it or under it is refused, and the commit keeps it', async () => {
    const { workspace, treeOf } = await repository([
      { path: 'index.mdx', text: '# Home\n' },
      { path: 'linkdir', text: '../../tmp', mode: '120000' },
      { path: 'guides/etc', text: '/etc', mode: '120000' },
    ])
    await expect(workspace.writeFile('linkdir/pwned.md', 'x')).rejects.toThrow(/"linkdir" is a symbolic link/)
    await expect(workspace.writeFile('guides/etc/passwd.md', 'x')).rejects.toThrow(/"guides\/etc" is a symbolic link/)
    await expect(workspace.writeFile('linkdir', 'x')).rejects.toThrow(/"linkdir" is a symbolic link/)
    // Reading or deleting it says what it is, not "no such file".
    await expect(workspace.readFile('linkdir')).rejects.toThrow(/"linkdir" is a symbolic link/)
    await expect(workspace.readFile('guides/etc/passwd')).rejects.toThrow(/"guides\/etc" is a symbolic link/)
    await expect(workspace.deleteFile('linkdir')).rejects.toThrow(/"linkdir" is a symbolic link/)
    await workspace.writeFile('guides/new.mdx', '# New\n')
    expect(workspace.changes().map((change) => change.path)).toEqual(['guides/new.mdx'])
    const commit = await workspace.commit({ message: 'Add a page', author: { name: 'Docent', email: 'docent@example.com' } })
    expect(await treeOf(commit!)).toEqual(['guides/etc 40960', 'guides/new.mdx 33188', 'index.mdx 33188', 'linkdir 40960'])
  })
})
