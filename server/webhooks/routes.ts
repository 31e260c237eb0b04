import { WebhookAck } from '../../shared/automations.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { githubEvent } from './github-events.ts'
import { gitlabEvent } from './gitlab-events.ts'
import type { WebhookEvent, WebhookHost } from './types.ts'
import { verifyGitHubSignature, verifyGitLabToken } from './verify.ts'

const ACK = { description: 'the delivery was verified and handed to its listeners', schema: WebhookAck }

/**
 * `POST /webhooks/github` and `POST /webhooks/gitlab`: signed deliveries of pushes and merged pull/merge requests. The
 * signature is checked on the raw body before anything is read or stored; a delivery Docent has no use for is
 * acknowledged as `ignored` (hosts retry deliveries that fail).
 */
export function webhookRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'post',
      path: '/webhooks/github',
      tag: 'webhooks',
      summary: 'GitHub webhook: push and merged pull_request events (X-Hub-Signature-256)',
      description:
        'Configure the webhook with content type application/json (or form), the secret named by `webhooks.github.secret` ' +
        '(or a code repository’s `webhookSecret`), and the events "Pushes" and "Pull requests".',
      guard: publicGuard,
      responses: {
        200: ACK,
        400: { description: 'the body is not a JSON payload' },
        401: { description: 'a missing or wrong X-Hub-Signature-256, or no secret configured: nothing was read or stored' },
      },
      handler: async (c) => {
        const body = new Uint8Array(await c.req.arrayBuffer())
        const secrets = secretsOf(ctx, 'github')
        if (secrets.length === 0)
          throw new ApiError(401, 'no GitHub webhook secret is configured (webhooks.github.secret); deliveries are refused')
        if (!(await verifyGitHubSignature(body, c.req.header('x-hub-signature-256'), secrets))) {
          throw new ApiError(401, 'X-Hub-Signature-256 is missing or does not match the body signed with the configured secret')
        }
        return answer(ctx, c, githubEvent(c.req.header('x-github-event'), payloadOf(body, c.req.header('content-type'))))
      },
    }),
    route({
      method: 'post',
      path: '/webhooks/gitlab',
      tag: 'webhooks',
      summary: 'GitLab webhook: Push Hook and merged Merge Request Hook events (X-Gitlab-Token)',
      description:
        'Configure the webhook with the secret token named by `webhooks.gitlab.token` (or a code repository’s ' +
        '`webhookSecret`) and the triggers "Push events" and "Merge request events".',
      guard: publicGuard,
      responses: {
        200: ACK,
        400: { description: 'the body is not a JSON payload' },
        401: { description: 'a missing or wrong X-Gitlab-Token, or no token configured: nothing was read or stored' },
      },
      handler: async (c) => {
        const body = new Uint8Array(await c.req.arrayBuffer())
        const secrets = secretsOf(ctx, 'gitlab')
        if (secrets.length === 0)
          throw new ApiError(401, 'no GitLab webhook token is configured (webhooks.gitlab.token); deliveries are refused')
        if (!(await verifyGitLabToken(c.req.header('x-gitlab-token'), secrets))) {
          throw new ApiError(401, 'X-Gitlab-Token is missing or is not the configured secret token')
        }
        return answer(ctx, c, gitlabEvent(c.req.header('x-gitlab-event'), payloadOf(body, c.req.header('content-type'))))
      },
    }),
  ]
}

async function answer(ctx: DocentContext, c: AppContext, event: WebhookEvent | null): Promise<Response> {
  if (!event) return c.json({ event: 'ignored', runs: 0 } satisfies WebhookAck)
  const runs = await ctx.webhooks.emit(event, (error) =>
    ctx.log.error('webhook listener failed', { host: event.host, repository: event.repository, error: String(error) }),
  )
  return c.json({ event: event.kind, runs } satisfies WebhookAck)
}

/** JSON, or GitHub's form encoding (`payload=<json>`). */
function payloadOf(body: Uint8Array, contentType: string | undefined): unknown {
  const text = new TextDecoder().decode(body)
  try {
    if (/^application\/x-www-form-urlencoded/i.test(contentType ?? '')) return JSON.parse(new URLSearchParams(text).get('payload') ?? '')
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'the body is not a JSON webhook payload')
  }
}

/** Every secret a delivery from the host may be signed with: the server's, and the code repositories' own. */
function secretsOf(ctx: DocentContext, host: WebhookHost): string[] {
  const names = [host === 'github' ? ctx.config.webhooks.github?.secret.env : ctx.config.webhooks.gitlab?.token.env]
  for (const project of ctx.config.projects) {
    for (const repository of project.automations.codeRepositories) {
      if (repository.host === host) names.push(repository.webhookSecret?.env)
    }
  }
  return [...new Set(names.map((name) => (name ? ctx.env[name] : undefined)).filter((value): value is string => Boolean(value)))]
}
