import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeServer, listenLocal, readBody } from '../../../tests/support/local-http.ts'
import type { Logger } from '../../log.ts'
import { type AutomationEvent, AutomationWebhookBody, slackMessage, webhookBody } from './payloads.ts'
import { MAX_ANSWER_BYTES, sendNotification } from './send.ts'

const base = {
  occurredAt: '2026-11-23T09:00:00.000Z',
  project: { id: 'demo', name: 'Lumen docs' },
  automation: { id: 'fix-broken-links', name: 'Fix broken links' },
  run: { id: 'run_01', reason: 'schedule' as const, jobId: 'job_01' },
}
const opened: AutomationEvent = {
  ...base,
  type: 'pr_opened',
  pullRequest: { url: 'https://github.com/lumen/docs/pull/7', title: 'Fix 3 broken links | docs' },
  summary: 'Checked 136 internal links: 3 broken, 3 fixed. <details>',
}

describe('payloads', () => {
  it('builds a Slack message with blocks, escaped text and a fallback', () => {
    expect(slackMessage(opened)).toEqual({
      text: 'Fix broken links (Lumen docs) opened a pull request: Fix 3 broken links | docs https://github.com/lumen/docs/pull/7',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*Fix broken links* opened a pull request: <https://github.com/lumen/docs/pull/7|Fix 3 broken links ¦ docs>',
          },
        },
        { type: 'section', text: { type: 'mrkdwn', text: 'Checked 136 internal links: 3 broken, 3 fixed. &lt;details&gt;' } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'Review the pull request' },
              url: 'https://github.com/lumen/docs/pull/7',
            },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Lumen docs · ran on its schedule · run run_01' }] },
      ],
    })
  })

  it('covers a PR waiting for review, a merge and a failure', () => {
    const waiting = slackMessage({ ...base, type: 'pr_waiting', pullRequest: { url: 'https://x.test/pr/1' }, days: 3 })
    expect(waiting.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*Fix broken links*: <https://x.test/pr/1|pull request> has waited for review for 3 days.' },
    })
    expect(slackMessage({ ...base, type: 'run_merged', commit: '0123456789abcdef' }).text).toBe(
      'Fix broken links (Lumen docs) merged its changes (0123456789ab)',
    )
    const failed = slackMessage({
      ...base,
      run: { ...base.run, reason: 'manual' },
      type: 'run_failed',
      error: 'push rejected: <branch> is protected',
    })
    expect(failed.blocks).toEqual([
      {
        type: 'section',
        text: { type: 'mrkdwn', text: ':warning: *Fix broken links* failed: push rejected: &lt;branch&gt; is protected' },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Lumen docs · ran when triggered · run run_01' }] },
    ])
  })

  it('escapes Slack’s control characters in the fallback text, not only in the blocks', () => {
    const named = { ...opened, automation: { id: 'ping', name: '<!channel> & <@U0>' } }
    expect(slackMessage(named).text).toBe(
      '&lt;!channel&gt; &amp; &lt;@U0&gt; (Lumen docs) opened a pull request: Fix 3 broken links | docs https://github.com/lumen/docs/pull/7',
    )
    // A generic receiver gets the name as it is: the escaping is Slack's.
    expect(webhookBody(named).text).toMatch(/^<!channel> & <@U0> /)
  })

  it('builds the generic JSON body: the event, namespaced, with a line of text', () => {
    const body = webhookBody(opened)
    expect(AutomationWebhookBody.parse(body)).toEqual(body)
    expect(body).toMatchObject({ type: 'pr_opened', event: 'automation.pr_opened', run: { id: 'run_01', jobId: 'job_01' } })
    expect(body.text).toBe(slackMessage(opened).text)
  })
})

describe('sendNotification', () => {
  let server: Server
  let url: string
  const received: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = []
  const lines: string[] = []
  const log: Logger = {
    info: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
    warn: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
    error: (message, fields) => lines.push(JSON.stringify({ message, ...fields })),
  }
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await readBody(req)
      received.push({ path: req.url!, headers: req.headers, body })
      if (req.url!.includes('slow')) return // never answers: the sender's timeout must end it
      res.writeHead(req.url!.includes('gone') ? 404 : 200, { 'content-type': 'text/plain' })
      res.end(req.url!.includes('gone') ? `no_service for ${req.url}` : 'ok')
    })
    url = await listenLocal(server)
  })
  afterAll(() => closeServer(server))

  it('posts a Slack message to an incoming webhook', async () => {
    const result = await sendNotification({ kind: 'slack', url: `${url}/services/T0/B0/s3cr3tToken` }, opened, { fetch, log })
    expect(result).toEqual({ ok: true, status: 200 })
    const request = received.at(-1)!
    expect(request.headers['content-type']).toBe('application/json')
    expect(JSON.parse(request.body)).toEqual(slackMessage(opened))
  })

  it('signs a generic webhook body with HMAC-SHA256 when given a secret', async () => {
    const result = await sendNotification({ kind: 'webhook', url: `${url}/hook`, secret: 'whsec_abcdef' }, opened, { fetch })
    expect(result.ok).toBe(true)
    const request = received.at(-1)!
    expect(request.headers['x-docent-event']).toBe('automation.pr_opened')
    expect(request.headers['x-docent-signature-256']).toBe(
      `sha256=${createHmac('sha256', 'whsec_abcdef').update(request.body).digest('hex')}`,
    )
    expect(JSON.parse(request.body)).toEqual(webhookBody(opened))
  })

  it('reports a refusal and a timeout without throwing, and never logs the URL’s secret path', async () => {
    lines.length = 0
    const refused = await sendNotification({ kind: 'slack', url: `${url}/services/gone/s3cr3tToken` }, opened, { fetch, log })
    expect(refused.ok).toBe(false)
    expect(refused.status).toBe(404)
    expect(refused.error).toMatch(/^127\.0\.0\.1:\d+ answered 404: no_service for \*\*\*$/)
    const slow = await sendNotification({ kind: 'webhook', url: `${url}/slow/s3cr3tToken`, secret: 'whsec_abcdef' }, opened, {
      fetch,
      log,
      timeoutMs: 200,
    })
    expect(slow).toEqual({ ok: false, error: expect.stringMatching(/no answer within 200 ms$/) })
    const unreachable = await sendNotification({ kind: 'webhook', url: 'http://127.0.0.1:1/s3cr3tToken' }, opened, { fetch, log })
    expect(unreachable.ok).toBe(false)
    expect(lines.length).toBe(3)
    for (const text of [...lines, refused.error, slow.error, unreachable.error]) {
      expect(text).not.toContain('s3cr3tToken')
      expect(text).not.toContain('whsec_abcdef')
    }
  })
})

describe('sendNotification and a receiver’s answer', () => {
  let server: Server
  let url: string
  // Per request path: how many bytes the receiver wrote, and whether the sender closed the connection.
  const answers = new Map<string, { written: number; closed: boolean }>()
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      await readBody(req)
      const path = req.url!
      const answer = { written: 0, closed: false }
      answers.set(path, answer)
      res.on('close', () => (answer.closed = true))
      res.on('error', () => undefined)
      res.writeHead(path.includes('refused') ? 500 : 200, { 'content-type': 'text/plain' })
      if (path.includes('stalled')) {
        res.write('o') // the headers and a byte, then nothing: only the sender's deadline ends it
        return
      }
      // Endless: writes as fast as the sender reads, until it closes the connection.
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const pump = () => {
        while (!res.destroyed) {
          answer.written += chunk.length
          if (!res.write(chunk)) return
        }
      }
      res.on('drain', pump)
      pump()
    })
    url = await listenLocal(server)
  })
  afterAll(() => closeServer(server))

  const closed = async (path: string) => {
    for (let i = 0; i < 100 && !answers.get(path)?.closed; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    return answers.get(path)!
  }

  it('reads the start of an endless answer and cancels the rest, well within the timeout', async () => {
    const started = Date.now()
    const accepted = await sendNotification({ kind: 'slack', url: `${url}/endless` }, opened, { fetch, timeoutMs: 3000 })
    const refused = await sendNotification({ kind: 'webhook', url: `${url}/endless-refused` }, opened, { fetch, timeoutMs: 3000 })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(accepted).toEqual({ ok: true, status: 200 })
    // The error is the answer's start (a refusal's message), cut to 200 characters.
    expect(refused).toEqual({ ok: false, status: 500, error: expect.stringMatching(/answered 500: x{200}$/) })
    for (const path of ['/endless', '/endless-refused']) {
      const answer = await closed(path)
      expect(answer.closed).toBe(true)
      // What the socket buffers held besides the bytes read; reading it all would be hundreds of MB by now.
      expect(answer.written).toBeLessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024)
    }
  }, 10_000)

  it('ends an answer whose body stalls after its headers at the timeout, even where the fetch ignores the signal then', async () => {
    // A fetch that never aborts its body (as some runtimes' do): the send's own deadline must end the read.
    const headersOnly: typeof fetch = (input, init) => fetch(input, { ...init, signal: undefined })
    for (const [path, fetchImpl] of [
      ['/stalled', fetch],
      ['/stalled-no-signal', headersOnly],
    ] as const) {
      const started = Date.now()
      const result = await sendNotification({ kind: 'webhook', url: `${url}${path}` }, opened, { fetch: fetchImpl, timeoutMs: 300 })
      expect(Date.now() - started).toBeLessThan(1500)
      expect(result).toEqual({ ok: false, error: expect.stringMatching(/no answer within 300 ms$/) })
      expect((await closed(path)).closed).toBe(true)
    }
  })
})
