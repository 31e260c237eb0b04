import { execFile, spawn } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { closeServer, listenLocal } from './local-http.ts'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const GIT_HTTP_BACKEND = '/usr/lib/git-core/git-http-backend'

/** Runs the machine's git in `cwd` with a fixed identity; returns stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  })
  return stdout
}

export interface GitServer {
  /** Base URL; a repository `name.git` under `root` is at `${url}/name.git`. */
  url: string
  root: string
  /** Requests seen, for tests that check what a client sent (e.g. auth headers). */
  requests: Array<{ method: string; path: string; authorization?: string }>
  close(): Promise<void>
}

export interface GitServerOptions {
  /** When set, every request must carry HTTP basic auth with this password (any user name), else 401. */
  password?: string
}

/**
 * A real smart-HTTP git server: Node's http server in front of the machine's `git http-backend` (CGI),
 * serving bare repositories under a temp folder, with push enabled.
 */
export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), 'docent-git-'))
  const requests: GitServer['requests'] = []
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    requests.push({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization })
    if (options.password) {
      const auth = req.headers.authorization ?? ''
      const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : ''
      if (decoded.split(':').slice(1).join(':') !== options.password) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorized')
        return
      }
    }
    const child = spawn(GIT_HTTP_BACKEND, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'docent',
        REMOTE_ADDR: '127.0.0.1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
      },
    })
    req.pipe(child.stdin)
    // CGI output: headers, a blank line, then the body.
    let head = Buffer.alloc(0)
    let headersDone = false
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk)
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      headersDone = true
      let status = 200
      const headers: Record<string, string> = {}
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':')
        const name = line.slice(0, i).trim()
        const value = line.slice(i + 1).trim()
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10)
        else headers[name] = value
      }
      res.writeHead(status, headers)
      res.write(head.subarray(end + 4))
    })
    child.stdout.on('end', () => res.end())
    child.on('error', () => res.writeHead(500).end())
  })
  const url = await listenLocal(server)
  return {
    url,
    root,
    requests,
    async close() {
      await closeServer(server)
      await rm(root, { recursive: true, force: true })
    },
  }
}

/**
 * Makes a bare repository `name.git` under the server's root whose `branch` holds a copy of `sourceDir`
 * (or the given files), as one commit. Returns the path of a work tree clone for making further commits.
 */
export async function createRepo(
  server: GitServer,
  name: string,
  content: { sourceDir?: string; files?: Record<string, string> },
  branch = 'main',
): Promise<{ bare: string; url: string; work: string }> {
  const bare = join(server.root, `${name}.git`)
  await git(server.root, 'init', '--bare', '-q', '-b', branch, bare)
  const work = await mkdtemp(join(tmpdir(), `docent-work-${name}-`))
  await git(work, 'init', '-q', '-b', branch)
  if (content.sourceDir) await copyDir(content.sourceDir, work)
  for (const [path, text] of Object.entries(content.files ?? {})) {
    await mkdir(dirname(join(work, path)), { recursive: true })
    await writeFile(join(work, path), text)
  }
  await git(work, 'add', '-A')
  await git(work, 'commit', '-q', '-m', 'initial docs')
  await git(work, 'remote', 'add', 'origin', bare)
  await git(work, 'push', '-q', 'origin', branch)
  return { bare, url: `${server.url}/${name}.git`, work }
}

async function copyDir(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from)) {
    if (entry === '.git' || entry === 'node_modules') continue
    const source = join(from, entry)
    const target = join(to, entry)
    if ((await stat(source)).isDirectory()) {
      await mkdir(target, { recursive: true })
      await copyDir(source, target)
    } else {
      await copyFile(source, target)
    }
  }
}
