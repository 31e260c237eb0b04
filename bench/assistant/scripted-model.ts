/**
 * A zero-latency OpenAI-compatible model as a `fetch` function: every chat-completions request gets the same
 * streamed answer at once. Both benchmarked servers call it through `@ai-sdk/openai`, so the model costs the same.
 */
const ANSWER =
  'Percentage rollouts serve a variation to a share of contexts [1]. Bucketing hashes the context key, so ramping up is sticky [1]. Start at 1%, then 5%, 25%, 50% and 100% [2].'
const CHUNK = 16

export const scriptedModelFetch: typeof fetch = async () => {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'scripted' }
  const lines: string[] = []
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    lines.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] })}\n\n`)
  delta({ role: 'assistant', content: '' })
  for (let at = 0; at < ANSWER.length; at += CHUNK) delta({ content: ANSWER.slice(at, at + CHUNK) })
  delta({}, 'stop')
  lines.push('data: [DONE]\n\n')
  return new Response(lines.join(''), { headers: { 'content-type': 'text/event-stream' } })
}
