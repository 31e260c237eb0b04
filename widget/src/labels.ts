/** Every text the widget shows; a page overrides any of them (`labels` property or `data-labels` JSON) to translate. */
export const defaultLabels = {
  launcher: 'Ask AI',
  title: 'Ask the docs',
  placeholder: 'Ask a question about the docs…',
  send: 'Send',
  stop: 'Stop',
  retry: 'Retry',
  close: 'Close',
  newThread: 'New conversation',
  greeting: 'Hi! Ask anything about these docs. Answers come from the pages, with links to them.',
  starters: 'Suggested questions',
  sources: 'Sources',
  copy: 'Copy answer',
  copied: 'Copied',
  copyCode: 'Copy code',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  thanks: 'Thanks for the feedback',
  thinking: 'Searching the docs…',
  loading: 'Loading…',
  answerReady: 'Answer ready',
  askSelection: 'Ask about selection',
  selection: 'About this selection',
  removeSelection: 'Remove selection',
  you: 'You',
  assistant: 'Assistant',
  disclaimer: 'Answers are generated from the docs and may be wrong.',
  errorNetwork: 'Could not reach the assistant. Check your connection and retry.',
  errorAuth: 'This site’s assistant key was refused',
  errorRateLimit: 'Too many questions right now.',
  errorRetryIn: 'Try again in {wait}.',
  errorServer: 'The assistant failed to answer',
  shortcut: 'Ctrl+I',
}
export type Labels = typeof defaultLabels

export function mergeLabels(overrides: Partial<Labels> | undefined | null): Labels {
  return { ...defaultLabels, ...(overrides ?? {}) }
}
