import type { AutomationEvent, AutomationWebhookBody, RunReason } from '../../../shared/automations.ts'

// The event and webhook-body schemas are the API's, in shared/automations.ts; re-exported for the engines' callers.
export { AutomationEvent, AutomationWebhookBody } from '../../../shared/automations.ts'

/** A Slack incoming-webhook message: `text` is the fallback (notifications, clients without blocks). */
export interface SlackMessage {
  text: string
  blocks: Array<Record<string, unknown>>
}

const REASONS: Record<RunReason, string> = {
  schedule: 'on its schedule',
  content: 'after a docs push',
  code: 'after a code change merged',
  manual: 'when triggered',
}

/** Slack's section text limit is 3,000 characters; a summary is cut well before. */
const MAX_SUMMARY = 1500

/** One plain sentence for the event: Slack's fallback text and the generic body's `text`. */
export function eventText(event: AutomationEvent): string {
  const who = `${event.automation.name} (${event.project.name ?? event.project.id})`
  switch (event.type) {
    case 'pr_opened':
      return `${who} opened a pull request: ${event.pullRequest.title ? `${event.pullRequest.title} ` : ''}${event.pullRequest.url}`
    case 'pr_waiting':
      return `${who}: a pull request has waited for review for ${event.days} day${event.days === 1 ? '' : 's'}: ${event.pullRequest.url}`
    case 'run_merged':
      return `${who} merged its changes${
        event.pullRequest ? `: ${event.pullRequest.url}` : event.commit ? ` (${event.commit.slice(0, 12)})` : ''
      }`
    case 'run_failed':
      return `${who} failed: ${event.error}`
  }
}

/** The Slack message for an event: a sentence with the pull request linked, what changed, a button, and the run's context. */
export function slackMessage(event: AutomationEvent): SlackMessage {
  const name = `*${mrkdwn(event.automation.name)}*`
  const link = (pr: { url: string; title?: string }) => `<${pr.url}|${mrkdwn(pr.title ?? 'pull request').replace(/\|/g, '¦')}>`
  let headline: string
  switch (event.type) {
    case 'pr_opened':
      headline = `${name} opened a pull request: ${link(event.pullRequest)}`
      break
    case 'pr_waiting':
      headline = `${name}: ${link(event.pullRequest)} has waited for review for ${event.days} day${event.days === 1 ? '' : 's'}.`
      break
    case 'run_merged':
      headline = `${name} merged its changes${
        event.pullRequest ? `: ${link(event.pullRequest)}` : event.commit ? ` (\`${mrkdwn(event.commit.slice(0, 12))}\`)` : '.'
      }`
      break
    case 'run_failed':
      headline = `:warning: ${name} failed: ${mrkdwn(event.error.slice(0, MAX_SUMMARY))}`
      break
  }
  const blocks: Array<Record<string, unknown>> = [{ type: 'section', text: { type: 'mrkdwn', text: headline } }]
  if (event.type === 'pr_opened' && event.summary) {
    const summary = event.summary.length > MAX_SUMMARY ? `${event.summary.slice(0, MAX_SUMMARY - 1)}…` : event.summary
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: mrkdwn(summary) } })
  }
  if (event.type === 'pr_opened' || event.type === 'pr_waiting') {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Review the pull request' }, url: event.pullRequest.url }],
    })
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: mrkdwn(`${event.project.name ?? event.project.id} · ran ${REASONS[event.run.reason]} · run ${event.run.id}`),
      },
    ],
  })
  // The fallback is mrkdwn too: a name like `<!channel>` would otherwise ping the channel.
  return { text: mrkdwn(eventText(event)), blocks }
}

/** The generic JSON webhook body for an event. */
export function webhookBody(event: AutomationEvent): AutomationWebhookBody {
  return { ...event, event: `automation.${event.type}`, text: eventText(event) }
}

/** Text safe in Slack's mrkdwn: `&`, `<` and `>` are its control characters. */
function mrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
