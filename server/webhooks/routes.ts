import { WebhookResult } from '../../shared/analytics.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { handleHostEvent } from './dispatch.ts'
import { gitHubEvent, gitLabEvent } from './payloads.ts'
import { verifyGitHubSignature, verifyGitLabToken } from './signature.ts'

const RESPONSES = {
  200: { description: 'verified; what Docent did with it (nothing for events it does not use)', schema: WebhookResult },
  400: { description: 'the body is not a JSON payload' },
  401: { description: 'a missing or bad signature, or no secret configured' },
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
 * `POST /webhooks/github` and `POST /webhooks/gitlab`: signed deliveries of pushes and merged or closed pull/merge
 * requests. The signature is checked on the raw body before anything in it is read.
 */
export function webhookRoutes(ctx: DocentContext): Route[] {
  const secret = (ref: { env: string } | undefined) => (ref ? ctx.env[ref.env] : undefined)
  return [
    route({
      method: 'post',
      path: '/webhooks/github',
      tag: 'webhooks',
      summary: 'GitHub (and Gitea/Forgejo) webhook: push and pull_request events, signed with X-Hub-Signature-256',
      description:
        'Configure it with content type application/json and the secret of `webhooks.github.secret` (`DOCENT_GITHUB_WEBHOOK_SECRET`).',
      guard: publicGuard,
      responses: RESPONSES,
      handler: async (c) => {
        const key = secret(ctx.config.webhooks.github?.secret)
        if (!key) throw new ApiError(401, 'GitHub webhooks are not configured: set webhooks.github.secret (DOCENT_GITHUB_WEBHOOK_SECRET)')
        const body = new Uint8Array(await c.req.arrayBuffer())
        if (!(await verifyGitHubSignature(key, body, c.req.header('x-hub-signature-256')))) {
          throw new ApiError(401, 'bad or missing X-Hub-Signature-256')
        }
        const event = c.req.header('x-github-event') ?? ''
        const actions = await handleHostEvent(ctx, 'github', gitHubEvent(event, payloadOf(c, body)))
        return c.json({ event, actions } satisfies WebhookResult)
      },
    }),
    route({
      method: 'post',
      path: '/webhooks/gitlab',
      tag: 'webhooks',
      summary: 'GitLab webhook: push and merge request events, with the secret token in X-Gitlab-Token',
      description: 'Configure it with the secret token of `webhooks.gitlab.token` (`DOCENT_GITLAB_WEBHOOK_TOKEN`).',
      guard: publicGuard,
      responses: RESPONSES,
      handler: async (c) => {
        const key = secret(ctx.config.webhooks.gitlab?.token)
        if (!key) throw new ApiError(401, 'GitLab webhooks are not configured: set webhooks.gitlab.token (DOCENT_GITLAB_WEBHOOK_TOKEN)')
        if (!(await verifyGitLabToken(key, c.req.header('x-gitlab-token')))) throw new ApiError(401, 'bad or missing X-Gitlab-Token')
        const payload = payloadOf(c, new Uint8Array(await c.req.arrayBuffer()))
        const event = c.req.header('x-gitlab-event') ?? ''
        const actions = await handleHostEvent(ctx, 'gitlab', gitLabEvent(payload))
        return c.json({ event, actions } satisfies WebhookResult)
      },
    }),
  ]
}
