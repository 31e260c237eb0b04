/**
 * The plain edit instructions the offline editor understands. Each one is parsed into an intent; anything else
 * is `unknown` and the editor answers with this list instead of guessing.
 */
export const UNDERSTOOD_INSTRUCTIONS = [
  'Replace "old phrase" with "new phrase" everywhere',
  'Replace "old phrase" with "new phrase" in <page path or title>',
  'Add a page titled "Title" [in the "Group" group] [with the text "..."]',
  'Append a section "Heading" to <page path or title> [with the text "..."]',
  'Fix the misspelling "recieve" [-> "receive"] [in <page>]',
  'Fix misspellings (common English misspellings, everywhere)',
] as const

export type EditIntent =
  | { kind: 'replace'; from: string; to: string; page: string | null }
  | { kind: 'add-page'; title: string; group: string | null; body: string | null }
  | { kind: 'append-section'; heading: string; page: string; body: string | null }
  | { kind: 'fix-spelling'; word: string | null; correction: string | null; page: string | null }
  | { kind: 'unknown' }

// A quoted string in any of the quote styles people type: "x", “x”, 'x', ‘x’, `x`.
const Q = String.raw`(?:"([^"]+)"|“([^”]+)”|'([^']+)'|‘([^’]+)’|\`([^\`]+)\`)`

function quoted(match: RegExpExecArray, first: number): string | undefined {
  for (let i = first; i < first + 5; i++) if (match[i] !== undefined) return match[i]
  return undefined
}

/** `<page>` after "in"/"to": a quoted title or path, or one bare word (`quickstart`, `guides/webhooks.mdx`). */
function pageRef(text: string): string | null {
  const trimmed = text
    .trim()
    .replace(/^the\s+/i, '')
    .replace(/^(?:page|file|doc)\s+/i, '')
    .replace(/\s+(?:page|file)$/i, '')
  const match = new RegExp(`^${Q}$`).exec(trimmed)
  if (match) return quoted(match, 1) ?? null
  return /^\S+$/.test(trimmed) ? trimmed : null
}

/** Text given with "with the text ..." / "saying ..." / ": ...", quoted or not. */
function bodyOf(text: string | undefined): string | null {
  if (!text) return null
  const match = new RegExp(`^${Q}$`).exec(text.trim())
  return (match ? quoted(match, 1) : text.trim()) || null
}

const EVERYWHERE = String
  .raw`(?:\s+(?:everywhere|across\s+(?:all\s+)?(?:the\s+)?(?:docs|pages)|in\s+all\s+(?:the\s+)?(?:docs|pages|files)|on\s+every\s+page|throughout(?:\s+the\s+docs)?))?`
const BODY = String.raw`(?:\s*(?:,\s*)?(?:with\s+(?:the\s+)?(?:text|content|body)|saying|containing|that\s+says)\s*:?\s*([\s\S]+))?`

export function parseInstruction(prompt: string): EditIntent {
  const text = prompt.trim().replace(/^(?:please|can you|could you)\s+/i, '').replace(/[.!]\s*$/, '').trim()

  let m = new RegExp(
    `^(?:replace|change|rename|substitute)\\s+${Q}\\s+(?:with|to|by|into)\\s+${Q}${EVERYWHERE}(?:\\s+(?:in|on)\\s+(.+))?$`,
    'i',
  ).exec(text)
  if (m) {
    const page = m[11] ? pageRef(m[11]) : null
    if (m[11] && !page) return { kind: 'unknown' }
    return { kind: 'replace', from: quoted(m, 1)!, to: quoted(m, 6)!, page }
  }
  m = /^(?:replace|change|rename)\s+(.+?)\s+(?:with|to)\s+(.+?)(\s+everywhere)?$/i.exec(text)
  if (m && !/["“”'‘’`]/.test(text)) return { kind: 'replace', from: m[1]!, to: m[2]!, page: null }

  m = new RegExp(
    `^(?:add|create|write)\\s+(?:a\\s+)?(?:new\\s+)?page\\s+(?:titled\\s+|called\\s+|named\\s+|with\\s+(?:the\\s+)?title\\s+)?${Q}(?:\\s+(?:in|under|to)\\s+(?:the\\s+)?${Q}(?:\\s+(?:group|section))?)?${BODY}$`,
    'i',
  ).exec(text)
  if (m) return { kind: 'add-page', title: quoted(m, 1)!, group: quoted(m, 6) ?? null, body: bodyOf(m[11]) }

  m = new RegExp(
    `^(?:append|add)\\s+(?:a\\s+)?(?:new\\s+)?section\\s+(?:titled\\s+|called\\s+|named\\s+)?${Q}\\s+(?:to|on|in|at\\s+the\\s+end\\s+of)\\s+(.+?)${BODY}$`,
    'i',
  ).exec(text)
  if (m) {
    const page = pageRef(m[6]!)
    if (page) return { kind: 'append-section', heading: quoted(m, 1)!, page, body: bodyOf(m[7]) }
  }

  m = new RegExp(
    `^(?:fix|correct)\\s+(?:the\\s+)?(?:misspelling|typo|spelling)(?:\\s+of)?\\s+${Q}(?:\\s*(?:->|→|=>|to|with|as|into)\\s*${Q})?(?:\\s+(?:in|on)\\s+(.+))?$`,
    'i',
  ).exec(text)
  if (m) {
    const page = m[11] ? pageRef(m[11]) : null
    if (m[11] && !page) return { kind: 'unknown' }
    return { kind: 'fix-spelling', word: quoted(m, 1)!, correction: quoted(m, 6) ?? null, page }
  }
  m = /^(?:fix|correct)\s+(?:all\s+|the\s+)?(?:misspellings|typos|spelling(?:\s+mistakes)?)(?:\s+(?:everywhere|in\s+(.+)))?$/i.exec(text)
  if (m) {
    const page = m[1] ? pageRef(m[1]) : null
    if (m[1] && !page) return { kind: 'unknown' }
    return { kind: 'fix-spelling', word: null, correction: null, page }
  }
  return { kind: 'unknown' }
}

/** Common English misspellings and their corrections (lower case). */
export const MISSPELLINGS: Record<string, string> = {
  accomodate: 'accommodate',
  acheive: 'achieve',
  adress: 'address',
  agressive: 'aggressive',
  alot: 'a lot',
  apparantly: 'apparently',
  arguement: 'argument',
  begining: 'beginning',
  beleive: 'believe',
  calender: 'calendar',
  commited: 'committed',
  concensus: 'consensus',
  definately: 'definitely',
  dependancy: 'dependency',
  enviroment: 'environment',
  existance: 'existence',
  finaly: 'finally',
  foward: 'forward',
  goverment: 'government',
  guage: 'gauge',
  independant: 'independent',
  occured: 'occurred',
  occurence: 'occurrence',
  occurrance: 'occurrence',
  paramter: 'parameter',
  persistant: 'persistent',
  posible: 'possible',
  recieve: 'receive',
  recieved: 'received',
  reccomend: 'recommend',
  recomend: 'recommend',
  refered: 'referred',
  relevent: 'relevant',
  reponse: 'response',
  retreive: 'retrieve',
  seperate: 'separate',
  seperately: 'separately',
  succesful: 'successful',
  successfull: 'successful',
  sucess: 'success',
  teh: 'the',
  threshhold: 'threshold',
  tommorow: 'tomorrow',
  untill: 'until',
  wich: 'which',
  writting: 'writing',
}
