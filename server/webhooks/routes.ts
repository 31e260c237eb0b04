import { WebhookResult } from '../../shared/analytics.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { type HostKind, handleHostEvent } from './dispatch.ts'
import { gitHubEvent, gitLabEvent, type HostEvent } from './payloads.ts'
import { gitHubSigners, gitLabSigners } from './signature.ts'
import type { WebhookScope } from './registry.ts'
import { bodyLimit, readBodyText } from '../http/body-limit.ts'

/** Where the hosts deliver; these routes read bodies up to MAX_WEBHOOK_BODY_BYTES, not the API's limit. */
export const WEBHOOKS_PREFIX = '/webhooks/'
/** GitHub's cap on a delivery (25 MB): a push of many commits' file lists is larger than the API's 1 MiB. */
export const MAX_WEBHOOK_BODY_BYTES = 25 * 1024 * 1024

const RESPONSES = {
  200: { description: 'verified; what Docent did with it (nothing for events it does not use)', schema: WebhookResult },
  400: { description: 'the body is not a JSON payload' },
  401: { description: 'a missing or bad signature, or no secret configured: nothing was read or stored' },
  408: { description: 'the body did not arrive within the server’s body time (`limits.bodySeconds`)' },
  413: { description: `the body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes` },
}

/** A delivery's payload: JSON, or GitHub's form encoding (`payload=<json>`). */
function payloadOf(c: AppContext, body: Uint8Array<ArrayBuffer>): unknown {
  const text = new TextDecoder().decode(body)
  const json = /^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')
    ? new URLSearchParams(text).get('payload')
    : text
  try {
    return JSON.parse(json ?? '')
  } catch {
    throw new ApiError(400, 'the webhook body is not a JSON payload')
  }
}

/**
 * Who may sign a host's deliveries. The server's secret vouches for every repository and event. A code repository's
 * own `webhookSecret` vouches only for that repository's deliveries, and only as a code change for the projects that
 * list it: a secret another organization configured must not reload this one's docs, start its content automations or
 * mark its gap fixes merged.
 */
interface Signer {
  secret: string
  codeRepository?: { projectId: string; repository: string }
}

function signersOf(ctx: DocentContext, host: HostKind): Signer[] {
  const signers: Signer[] = []
  const server = ctx.env[(host === 'github' ? ctx.config.webhooks.github?.secret.env : ctx.config.webhooks.gitlab?.token.env) ?? '']
  if (server) signers.push({ secret: server })
  for (const project of ctx.config.projects) {
    for (const repository of project.automations.codeRepositories) {
      const secret = repository.host === host && repository.webhookSecret ? ctx.env[repository.webhookSecret.env] : undefined
      if (secret) signers.push({ secret, codeRepository: { projectId: project.id, repository: repository.repository } })
    }
  }
  return signers
}

/** A bad or missing signature: 401, before anything in the body is read or stored. */
function unsigned(host: HostKind): never {
  throw new ApiError(401, host === 'github' ? 'bad or missing X-Hub-Signature-256' : 'bad or missing X-Gitlab-Token')
}

/**
 * The scope a delivery signed by `signed` is heard in (see Signer): the server's secret, every project; only code
 * repositories' secrets, the projects whose listed repository the delivery names, and nothing but merged pull
 * requests. A delivery that names another repository than the code repositories that signed it is refused.
 */
function scopeOf(signed: Signer[], event: HostEvent, host: HostKind): WebhookScope | null {
  if (signed.some((signer) => !signer.codeRepository)) return { kind: 'server' }
  const named = event.kind === 'other' ? null : event.repository.path?.toLowerCase()
  const own = signed.filter((signer) => signer.codeRepository!.repository.toLowerCase() === named)
  if (event.kind !== 'other' && own.length === 0) {
    throw new ApiError(
      401,
      `signed with a code repository’s webhookSecret, which vouches only for that repository’s deliveries; set ${
        host === 'github' ? 'webhooks.github.secret' : 'webhooks.gitlab.token'
      } for others`,
    )
  }
  if (event.kind !== 'pull_request' || event.action !== 'merged') return null
  return { kind: 'code', projects: new Set(own.map((signer) => signer.codeRepository!.projectId)) }
}

/** The gap loop first (merged and closed pull requests, docs reloads), then the listeners (automations). */
async function deliver(
  ctx: DocentContext,
  c: AppContext,
  host: HostKind,
  name: string,
  event: HostEvent,
  signed: Signer[],
): Promise<Response> {
  const scope = scopeOf(signed, event, host)
  const actions = scope?.kind === 'server' ? await handleHostEvent(ctx, host, event) : []
  const runs = scope
    ? await ctx.webhooks.emit(host, event, scope, (error) =>
        ctx.log.error('webhook listener failed', { host, event: name, error: String(error) }),
      )
    : 0
  return c.json({ event: name, actions, runs } satisfies WebhookResult)
}

/** The raw body, refused with 408 when it has not all arrived within the server's body time (as every request). */
const bodyOf = async (c: AppContext) => new Uint8Array(await readBodyText(c.req.raw, () => c.req.arrayBuffer()))

/**
 * `POST /webhooks/github` and `POST /webhooks/gitlab`: signed deliveries of pushes and merged or closed pull/merge
 * requests, for the gap loop and the automations. The signature is checked on the raw body before anything in it is
 * read or stored.
 */
export function webhookRoutes(ctx: DocentContext): Route[] {
  const guard = {
    ...publicGuard,
    middleware: [bodyLimit({ maxBytes: MAX_WEBHOOK_BODY_BYTES, timeoutSeconds: ctx.config.limits.bodySeconds })],
  }
  return [
    route({
      method: 'post',
      path: '/webhooks/github',
      tag: 'webhooks',
      summary: 'GitHub (and Gitea/Forgejo) webhook: push and pull_request events, signed with X-Hub-Signature-256',
      description:
        'Configure it with content type application/json, the secret of `webhooks.github.secret` (`DOCENT_GITHUB_WEBHOOK_SECRET`) ' +
        'or of a code repository’s `webhookSecret`, and the events "Pushes" and "Pull requests".',
      guard,
      responses: RESPONSES,
      handler: async (c) => {
        const signers = signersOf(ctx, 'github')
        if (signers.length === 0)
          throw new ApiError(401, 'GitHub webhooks are not configured: set webhooks.github.secret (DOCENT_GITHUB_WEBHOOK_SECRET)')
        const body = await bodyOf(c)
        const signed = await gitHubSigners(
          signers.map((signer) => signer.secret),
          body,
          c.req.header('x-hub-signature-256'),
        )
        if (signed.length === 0) unsigned('github')
        const event = c.req.header('x-github-event') ?? ''
        return deliver(
          ctx,
          c,
          'github',
          event,
          gitHubEvent(event, payloadOf(c, body)),
          signed.map((i) => signers[i]!),
        )
      },
    }),
    route({
      method: 'post',
      path: '/webhooks/gitlab',
      tag: 'webhooks',
      summary: 'GitLab webhook: push and merge request events, with the secret token in X-Gitlab-Token',
      description:
        'Configure it with the secret token of `webhooks.gitlab.token` (`DOCENT_GITLAB_WEBHOOK_TOKEN`) or of a code ' +
        'repository’s `webhookSecret`, and the triggers "Push events" and "Merge request events".',
      guard,
      responses: RESPONSES,
      handler: async (c) => {
        const signers = signersOf(ctx, 'gitlab')
        if (signers.length === 0)
          throw new ApiError(401, 'GitLab webhooks are not configured: set webhooks.gitlab.token (DOCENT_GITLAB_WEBHOOK_TOKEN)')
        const signed = await gitLabSigners(
          signers.map((signer) => signer.secret),
          c.req.header('x-gitlab-token'),
        )
        if (signed.length === 0) unsigned('gitlab')
        const payload = payloadOf(c, await bodyOf(c))
        return deliver(
          ctx,
          c,
          'gitlab',
          c.req.header('x-gitlab-event') ?? '',
          gitLabEvent(payload),
          signed.map((i) => signers[i]!),
        )
      },
    }),
  ]
}
