import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/**
 * The Node options of package.json's `start` script (`node <options> bin/start.mjs`, see bin/start.mjs), read from
 * there so that tests and benches run the server as `npm start` does.
 */
export const NPM_START_NODE_OPTIONS: string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
  // `exec`: the shell npm runs the script in becomes Node, so npm's SIGTERM reaches the server (see package.json).
  const words = scripts.start
    .trim()
    .replace(/^exec\s+/, '')
    .split(/\s+/)
  if (words[0] !== 'node' || !words.includes('bin/start.mjs')) throw new Error(`unexpected start script: ${scripts.start}`)
  return words.slice(1, words.indexOf('bin/start.mjs'))
})()

export type Runtime = 'node' | 'deno' | 'bun' | 'node-built' | 'npm-start'

export const RUNTIME_COMMANDS: Record<Runtime, string[]> = {
  node: [process.execPath, '--import', 'tsx', 'server/serve/node.ts'],
  deno: [
    'node_modules/.bin/deno',
    'run',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    '--allow-write',
    '--allow-sys',
    '--allow-run',
    'server/serve/deno.ts',
  ],
  bun: ['node_modules/.bin/bun', 'server/serve/bun.ts'],
  // What `npm start` runs, with its Node options: the bundle of bin/build-server.mjs (build it first).
  'node-built': [process.execPath, ...NPM_START_NODE_OPTIONS, 'server/dist/node.mjs'],
  // What the README's `npm start` runs (builds what is stale, then runs the bundle), spawned directly.
  'npm-start': [process.execPath, ...NPM_START_NODE_OPTIONS, 'bin/start.mjs'],
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface ServerProcess {
  url: string
  port: number
  child: ChildProcess
  output: () => string
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>
  /** SIGKILL: the process gets no chance to clean up. */
  kill(): Promise<void>
}

/** Starts the real server as a child process on a free port and waits for /healthz, asking every `pollMs`. */
export async function startServer(
  runtime: Runtime,
  env: Record<string, string>,
  { timeoutMs = 60_000, host = '127.0.0.1', pollMs = 100 } = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const [command, ...args] = RUNTIME_COMMANDS[runtime]
  let output = ''
  const child = spawn(command!, args, {
    cwd: process.cwd(),
    env: { ...process.env, NO_COLOR: '1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://${host}:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${runtime} server exited (${child.exitCode}):\n${output}`)
    try {
      // Not kept alive: a test's first request may come long after (another server still starting), when the server has
      // closed the idle connection; reused at that moment, it failed with ECONNRESET (CI, two instances starting together).
      const response = await fetch(`${url}/healthz`, { headers: { connection: 'close' } })
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${runtime} server did not answer /healthz within ${timeoutMs} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
  return {
    url,
    port,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      await exited
    },
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
}

/** A reader's question to the demo project through the v2 endpoint of a served Docent, as the widget sends it. */
export const askDemo = (server: ServerProcess, assistantKey: string, id: string, text: string) =>
  fetch(`${server.url}/discovery/v2/assistant/demo/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'reader', messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }] }),
  })
