// The AI SDK (`ai` and the gateway provider it bundles: about 550 KB of JavaScript) is imported when the server first
// answers, embeds or runs the agent, not at start (bench/startup). Types come from 'ai' directly (erased).
let loading: Promise<typeof import('ai')> | undefined

export const aiSdk = (): Promise<typeof import('ai')> => (loading ??= import('ai'))
