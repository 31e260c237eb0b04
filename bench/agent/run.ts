// Agent git benchmark: clone + edit + commit + push of a generated 2,000-file docs repo over local smart HTTP
// (git http-backend), isomorphic-git in memory beside the git CLI, in the same run. Runs on Node, then re-runs itself
// on Deno and Bun against the same server (hosted by the Node process). `--single` runs only Node; `--iterations N` (default 5).
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { createWorkspaceFactory } from '../../server/git/factory.ts'
import { fetchHttpClient } from '../../server/git/http-client.ts'
import { memoryFs } from '../../server/git/memory-fs.ts'
import type { GitFs } from '../../server/git/object-workspace.ts'
import { createRepo, git as cli, startGitServer } from '../../tests/support/git-server.ts'
import { fmt } from '../support.ts'
import { generateDocs } from './generate.ts'
import { lightningFs } from './lightning.ts'

const args = process.argv.slice(2)
const single = args.includes('--single')
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 5
const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node'
const author = { name: 'Bench', email: 'bench@example.com' }
const target = 'section-7/page-42.mdx'
const edit = (text: string) => text.replace('# Page', '# Edited page')

/**
 * The git CLI doing the workspace's work: a shallow clone without checking out the 2,000 files (the workspace checks
 * out none), the index read from HEAD, the one file checked out, edited, committed and pushed.
 */
async function viaCli(url: string, branch: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docent-bench-cli-'))
  try {
    await cli(dir, 'clone', '-q', '--depth', '1', '--single-branch', '--no-checkout', '-b', 'main', url, 'repo')
    const work = join(dir, 'repo')
    await cli(work, 'read-tree', 'HEAD')
    await cli(work, 'checkout', '--', target)
    const { readFile } = await import('node:fs/promises')
    await writeFile(join(work, target), edit(await readFile(join(work, target), 'utf8')))
    await cli(work, 'add', '--', target)
    await cli(work, 'commit', '-qm', 'bench edit')
    await cli(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The workspace Docent uses: no checkout, lazy blobs, only changed objects written and pushed. */
function viaWorkspace(fs: () => GitFs) {
  const factory = createWorkspaceFactory({ fetch, fs })
  return async (url: string, branch: string) => {
    const workspace = await factory.open({ repository: url, ref: 'main', jobId: 'bench' })
    await workspace.writeFile(target, edit((await workspace.readFile(target))!))
    await workspace.commit({ message: 'bench edit', author })
    await workspace.push(branch)
  }
}

/** The textbook isomorphic-git flow, for comparison: clone with checkout of every file, add, commit, push. */
async function viaCheckout(url: string, branch: string): Promise<void> {
  const fs = memoryFs()
  const files = fs as unknown as {
    promises: { readFile(path: string, encoding: 'utf8'): Promise<string>; writeFile(path: string, text: string): Promise<void> }
  }
  const http = fetchHttpClient(fetch)
  const dir = '/repo'
  await git.clone({ fs, http, dir, url, ref: 'main', singleBranch: true, depth: 1, noTags: true })
  await git.writeRef({ fs, dir, ref: 'refs/remotes/origin/HEAD', value: 'refs/remotes/origin/main', symbolic: true, force: true })
  const path = `${dir}/${target}`
  await files.promises.writeFile(path, edit(await files.promises.readFile(path, 'utf8')))
  await git.add({ fs, dir, filepath: target })
  await git.commit({ fs, dir, message: 'bench edit', author })
  await git.push({ fs, http, dir, url, ref: 'main', remoteRef: `refs/heads/${branch}` })
}

type Task = (url: string, branch: string) => Promise<void>

/**
 * Median time of each task. Tasks take turns within every round (rotating who goes first), so a burst of load on
 * this shared machine hits them alike; round 0 warms up the JIT and the server and is not counted.
 */
async function measure(tasks: Array<[string, Task]>, url: string): Promise<number[]> {
  const times = tasks.map(() => [] as number[])
  for (let round = 0; round <= iterations; round++) {
    for (let k = 0; k < tasks.length; k++) {
      const index = (k + round) % tasks.length
      const [name, task] = tasks[index]!
      const t0 = performance.now()
      await task(url, `bench/${runtime}-${name.replace(/\W+/g, '-')}-${round}`)
      if (round > 0) times[index]!.push(performance.now() - t0)
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!)
}

async function runHere(url: string, files: number, bytes: number): Promise<void> {
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')
  console.log(
    `${runtime}: ${files} files, ${fmt(
      bytes / 1024 / 1024,
      2,
    )} MB; median of ${iterations} after a warm-up; load average ${load} on ${cpus().length} cores`,
  )
  const tasks: Array<[string, Task]> = [
    ['git CLI', viaCli],
    ['workspace (memfs, no checkout)', viaWorkspace(memoryFs)],
    ['workspace (lightning-fs, no checkout)', viaWorkspace(lightningFs)],
    ['isomorphic-git clone + checkout (memfs)', viaCheckout],
  ]
  const [cliMs, ...rest] = await measure(tasks, url)
  console.log(`  ${'git CLI'.padEnd(42)} ${fmt(cliMs!, 0).padStart(6)} ms`)
  rest.forEach((ms, i) => console.log(`  ${tasks[i + 1]![0].padEnd(42)} ${fmt(ms, 0).padStart(6)} ms  ${fmt(ms / cliMs!, 2)}× CLI`))
}

function runChild(command: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' })
    child.on('exit', (code) => resolve(code))
    child.on('error', () => resolve(-1))
  })
}

const given = args.includes('--url') ? args.slice(args.indexOf('--url') + 1, args.indexOf('--url') + 4) : null
if (given) {
  // A child run: the parent's git server (on Node, the same for every runtime) holds the repository.
  await runHere(given[0]!, Number(given[1]), Number(given[2]))
} else {
  const server = await startGitServer()
  try {
    const files = generateDocs(2000)
    const { url } = await createRepo(server, 'bench', { files })
    const stats = [url, String(Object.keys(files).length), String(Object.values(files).reduce((sum, text) => sum + text.length, 0))]
    await runHere(url, Number(stats[1]), Number(stats[2]))
    if (!single) {
      for (const [name, command] of [
        ['deno', ['node_modules/.bin/deno', 'run', '-A', 'bench/agent/run.ts']],
        ['bun', ['node_modules/.bin/bun', 'bench/agent/run.ts']],
      ] as const) {
        const code = await runChild([...command, '--iterations', String(iterations), '--url', ...stats])
        if (code !== 0) console.log(`${name}: failed (exit ${code})`)
      }
    }
  } finally {
    await server.close()
  }
}
// lightning-fs leaves a 600 s timer per lock wait behind: exit instead of waiting for them.
process.exit(0)
