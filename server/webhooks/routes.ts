import { WebhookResult } from '../../shared/analytics.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { type HostKind, handleHostEvent } from './dispatch.ts'
import { gitHubEvent, gitLabEvent, type HostEvent } from './payloads.ts'
import { verifyGitHubSignature, verifyGitLabToken } from './signature.ts'

const RESPONSES = {
  200: { description: 'verified; what Docent did with it (nothing for events it does not use)', schema: WebhookResult },
  400: { description: 'the body is not a JSON payload' },
  401: { description: 'a missing or bad signature, or no secret configured: nothing was read or stored' },
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

/** Every secret a delivery from the host may be signed with: the server's, and the code repositories' own. */
function secretsOf(ctx: DocentContext, host: HostKind): string[] {
  const names = [host === 'github' ? ctx.config.webhooks.github?.secret.env : ctx.config.webhooks.gitlab?.token.env]
  for (const project of ctx.config.projects) {
    for (const repository of project.automations.codeRepositories) {
      if (repository.host === host) names.push(repository.webhookSecret?.env)
    }
  }
  return [...new Set(names.map((name) => (name ? ctx.env[name] : undefined)).filter((value): value is string => Boolean(value)))]
}

/** The gap loop first (merged and closed pull requests, docs reloads), then the listeners (automations). */
async function deliver(ctx: DocentContext, c: AppContext, host: HostKind, name: string, event: HostEvent): Promise<Response> {
  const actions = await handleHostEvent(ctx, host, event)
  const runs = await ctx.webhooks.emit(host, event, (error) =>
    ctx.log.error('webhook listener failed', { host, event: name, error: String(error) }),
  )
  return c.json({ event: name, actions, runs } satisfies WebhookResult)
}

/**
 * `POST /webhooks/github` and `POST /webhooks/gitlab`: signed deliveries of pushes and merged or closed pull/merge
 * requests, for the gap loop and the automations. The signature is checked on the raw body before anything in it is
 * read or stored.
 */
export function webhookRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'post',
      path: '/webhooks/github',
      tag: 'webhooks',
      summary: 'GitHub (and Gitea/Forgejo) webhook: push and pull_request events, signed with X-Hub-Signature-256',
      description:
        'Configure it with content type application/json, the secret of `webhooks.github.secret` (`DOCENT_GITHUB_WEBHOOK_SECRET`) ' +
        'or of a code repository’s `webhookSecret`, and the events "Pushes" and "Pull requests".',
      guard: publicGuard,
      responses: RESPONSES,
      handler: async (c) => {
        const secrets = secretsOf(ctx, 'github')
        if (secrets.length === 0)
          throw new ApiError(401, 'GitHub webhooks are not configured: set webhooks.github.secret (DOCENT_GITHUB_WEBHOOK_SECRET)')
        const body = new Uint8Array(await c.req.arrayBuffer())
        if (!(await verifyGitHubSignature(secrets, body, c.req.header('x-hub-signature-256')))) {
          throw new ApiError(401, 'bad or missing X-Hub-Signature-256')
        }
        const event = c.req.header('x-github-event') ?? ''
        return deliver(ctx, c, 'github', event, gitHubEvent(event, payloadOf(c, body)))
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
      guard: publicGuard,
      responses: RESPONSES,
      handler: async (c) => {
        const secrets = secretsOf(ctx, 'gitlab')
        if (secrets.length === 0)
          throw new ApiError(401, 'GitLab webhooks are not configured: set webhooks.gitlab.token (DOCENT_GITLAB_WEBHOOK_TOKEN)')
        if (!(await verifyGitLabToken(secrets, c.req.header('x-gitlab-token')))) throw new ApiError(401, 'bad or missing X-Gitlab-Token')
        const payload = payloadOf(c, new Uint8Array(await c.req.arrayBuffer()))
        return deliver(ctx, c, 'gitlab', c.req.header('x-gitlab-event') ?? '', gitLabEvent(payload))
      },
    }),
  ]
}
