import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { createDiskRepositories } from '../../server/agent/hosts/local-disk.ts'
import { git } from '../support/git-server.ts'

const temps: string[] = []
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function docsFolder(pages: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docent-seed-'))
  temps.push(dir)
  await mkdir(join(dir, 'guides'))
  await writeFile(join(dir, 'docs.json'), '{ "navigation": [] }\n')
  for (let i = 0; i < pages; i++) await writeFile(join(dir, 'guides', `page-${i}.mdx`), `---\ntitle: Page ${i}\n---\n\nText ${i}.\n`)
  return dir
}

const repositories = (dataDir: string, docs: string) =>
  createDiskRepositories({ dataDir, seedDirectory: () => docs, branch: () => 'main', now: () => new Date() })

test('kill -9 while the first local repository is built: the next start removes the half-made folder and builds it whole', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-crash-'))
  temps.push(dataDir)
  const docs = await docsFolder(3_000)
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/agent-git/support/build-local-repo.ts', dataDir, docs, 'demo'], {
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const gitDir = join(dataDir, 'git')
  // Killed as soon as its temporary folder has objects in it: a build in the middle of writing them.
  for (;;) {
    const temp = existsSync(gitDir) ? (await readdir(gitDir)).find((entry) => entry.startsWith('demo.git.tmp-')) : undefined
    if (temp && existsSync(join(gitDir, temp, 'objects')) && (await readdir(join(gitDir, temp, 'objects'))).length > 10) break
    expect(existsSync(join(gitDir, 'demo.git')), 'the build finished before it could be killed').toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  child.kill('SIGKILL')
  await exited
  expect((await readdir(gitDir)).filter((entry) => entry.includes('.tmp-'))).toHaveLength(1)
  expect(existsSync(join(gitDir, 'demo.git'))).toBe(false)

  const repo = await repositories(dataDir, docs).open('demo')
  expect(await readdir(gitDir)).toEqual(['demo.git'])
  expect((await git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main')).trim().split('\n')).toHaveLength(3_001)
  await git(repo.gitdir, 'fsck', '--strict', '--no-dangling')
}, 120_000)

test('builds of live processes, and recent ones of unknown owner, are left alone', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-sweep-'))
  temps.push(dataDir)
  const docs = await docsFolder(2)
  const gitDir = join(dataDir, 'git')
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' })
  const finished = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => finished.once('exit', resolve))
  const folders = {
    dead: `other.git.tmp-pid${finished.pid}-0a1b`,
    live: `other.git.tmp-pid${sleeper.pid}-2c3d`,
    oldUnowned: 'other.git.tmp-60001e2a-1b2c-4d5e-8f90-123456789abc',
    newUnowned: 'more.git.tmp-7a1d2e3f-1b2c-4d5e-8f90-123456789abc',
  }
  for (const folder of Object.values(folders)) await mkdir(join(gitDir, folder, 'objects'), { recursive: true })
  const hourAgo = new Date(Date.now() - 3_600_000)
  await utimes(join(gitDir, folders.oldUnowned), hourAgo, hourAgo)
  try {
    await repositories(dataDir, docs).open('demo')
    expect((await readdir(gitDir)).sort()).toEqual(['demo.git', folders.newUnowned, folders.live].sort())
  } finally {
    sleeper.kill('SIGKILL')
  }
})
