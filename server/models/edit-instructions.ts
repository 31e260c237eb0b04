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

// The parser reads prompts admins and bots send (up to 20,000 characters), on the server's event loop. It scans the
// text once into words and quoted strings, then matches each instruction's grammar over those tokens with a constant
// look-ahead: time grows linearly with the prompt, whatever its shape (a backtracking regular expression over
// `\s+(.+?)\s+` once took minutes on a run of spaces). Quoted text and the free text after "in" or "with the text" are
// sliced from the prompt as written.

interface Token {
  kind: 'word' | 'quoted' | 'mark'
  /** A word in lower case; a quoted string's content as written; a mark (`,`, `:`, `->`, `→`, `=>`). */
  text: string
  start: number
  end: number
}

const CLOSING: Record<string, string> = { '"': '"', '“': '”', "'": "'", '‘': '’', '`': '`' }
const MARKS = [',', ':', '->', '→', '=>']
const MARK_START = new Set(MARKS.map((mark) => mark[0]!))
const SPACE = /\s/
const isSpace = (char: string | undefined) => char !== undefined && (char === ' ' || SPACE.test(char))
const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char)

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  // Where each closing quote occurs next: found once per character and reused, so unclosed quotes stay linear.
  const nextClose = new Map<string, number>()
  const closeAfter = (char: string, from: number) => {
    const known = nextClose.get(char)
    if (known !== undefined && (known === -1 || known >= from)) return known
    const found = text.indexOf(char, from)
    nextClose.set(char, found)
    return found
  }
  const markAt = (i: number) => (MARK_START.has(text[i]!) ? MARKS.find((mark) => text.startsWith(mark, i)) : undefined)
  let i = 0
  while (i < text.length) {
    const char = text[i]!
    if (isSpace(char)) {
      i++
      continue
    }
    const closing = CLOSING[char]
    // A quote opens a quoted string unless it follows a letter or digit (the apostrophe of "don't").
    if (closing && !isWordChar(text[i - 1])) {
      const end = closeAfter(closing, i + 1)
      if (end > i + 1) {
        tokens.push({ kind: 'quoted', text: text.slice(i + 1, end), start: i, end: end + 1 })
        i = end + 1
        continue
      }
    }
    const mark = markAt(i)
    if (mark) {
      tokens.push({ kind: 'mark', text: mark, start: i, end: i + mark.length })
      i += mark.length
      continue
    }
    const start = i
    while (i < text.length && !isSpace(text[i]) && !markAt(i)) i++
    tokens.push({ kind: 'word', text: text.slice(start, i).toLowerCase(), start, end: i })
  }
  return tokens
}

const phraseWords = new Map<string, string[]>()
const wordsOf = (phrase: string) => phraseWords.get(phrase) ?? phraseWords.set(phrase, phrase.split(' ')).get(phrase)!

/** A position in the token list; every method looks at a fixed number of tokens. */
class Cursor {
  constructor(
    readonly tokens: Token[],
    readonly text: string,
    public at = 0,
  ) {}

  get done(): boolean {
    return this.at >= this.tokens.length
  }

  /** Consumes the words of one of the phrases (`'at the end of'`), the first that matches. */
  phrase(...phrases: string[]): boolean {
    for (const phrase of phrases) {
      const words = wordsOf(phrase)
      if (words.every((word, k) => this.tokens[this.at + k]?.kind === 'word' && this.tokens[this.at + k]!.text === word)) {
        this.at += words.length
        return true
      }
    }
    return false
  }

  /** Optional words, each at most once, in order: `optional('a', 'new')` reads "a new", "a", "new" or nothing. */
  optional(...words: string[]): void {
    for (const word of words) this.phrase(word)
  }

  mark(...marks: string[]): boolean {
    const token = this.tokens[this.at]
    if (token?.kind !== 'mark' || !marks.includes(token.text)) return false
    this.at++
    return true
  }

  quoted(): string | null {
    const token = this.tokens[this.at]
    if (token?.kind !== 'quoted') return null
    this.at++
    return token.text
  }

  /** The prompt as written from the current token to the end (or to token `until`). */
  rest(until = this.tokens.length): string {
    const first = this.tokens[this.at]
    const last = this.tokens[until - 1]
    return first && last && until > this.at ? this.text.slice(first.start, last.end) : ''
  }

  /** Runs `read`; when it fails the cursor goes back to where it was. */
  attempt<T>(read: () => T | null | false): T | null {
    const at = this.at
    const result = read()
    if (result === null || result === false) {
      this.at = at
      return null
    }
    return result
  }
}

/** `<page>` after "in"/"to": a quoted title or path, or one bare word (`quickstart`, `guides/webhooks.mdx`). */
function pageRef(raw: string): string | null {
  if (raw.includes('\n')) return null
  const words = raw.trim().split(/\s+/)
  if (words[0]?.toLowerCase() === 'the' && words.length > 1) words.shift()
  if (['page', 'file', 'doc'].includes(words[0]?.toLowerCase() ?? '') && words.length > 1) words.shift()
  if (['page', 'file'].includes(words.at(-1)?.toLowerCase() ?? '') && words.length > 1) words.pop()
  const text = words.join(' ')
  const whole = wholeQuoted(text)
  if (whole !== null) return whole
  return words.length === 1 && words[0] !== '' ? words[0]! : null
}

/** The content of text that is exactly one quoted string (`"x"`, `“x”`, ...), else null. */
function wholeQuoted(text: string): string | null {
  const closing = CLOSING[text[0] ?? '']
  if (!closing || text.length < 3 || !text.endsWith(closing)) return null
  const inner = text.slice(1, -1)
  return inner.includes(closing) ? null : inner
}

/** Text given with "with the text ..." / "saying ..." / ": ...", quoted or not. */
function bodyOf(text: string): string | null {
  const trimmed = text.trim()
  return (wholeQuoted(trimmed) ?? trimmed) || null
}

/** "everywhere", "across (all) (the) docs", "in all (the) pages", "on every page", "throughout (the docs)". */
function everywhere(c: Cursor): boolean {
  return (
    c.phrase('everywhere') ||
    Boolean(c.attempt(() => c.phrase('across') && (c.optional('all', 'the'), c.phrase('docs', 'pages')))) ||
    Boolean(c.attempt(() => c.phrase('in all') && (c.optional('the'), c.phrase('docs', 'pages', 'files')))) ||
    c.phrase('on every page') ||
    (c.phrase('throughout') && (c.phrase('the docs'), true))
  )
}

/** The start of a body: `[,] with (the) text|content|body`, `saying`, `containing`, `that says`, then an optional `:`. */
function bodyIntro(c: Cursor): boolean {
  return Boolean(
    c.attempt(() => {
      c.mark(',')
      const intro =
        c.attempt(() => c.phrase('with') && (c.optional('the'), c.phrase('text', 'content', 'body'))) ||
        c.phrase('saying', 'containing', 'that says')
      if (!intro) return false
      c.mark(':')
      return !c.done
    }),
  )
}

/** `[in|on <page>]` to the end: the page (null when absent), `unknown` when the words after "in" name no page. */
function pageSuffix(c: Cursor): { page: string | null } | 'unknown' | null {
  if (c.done) return { page: null }
  return c.attempt(() => {
    if (!c.phrase('in', 'on') || c.done || c.rest().includes('\n')) return null
    const page = pageRef(c.rest())
    return page ? { page } : 'unknown'
  })
}

type Grammar = (c: Cursor) => EditIntent | null

const replaceQuoted: Grammar = (c) => {
  if (!c.phrase('replace', 'change', 'rename', 'substitute')) return null
  const from = c.quoted()
  if (from === null || !c.phrase('with', 'to', 'by', 'into')) return null
  const to = c.quoted()
  if (to === null) return null
  // "in all the docs" reads as "everywhere" first, as a page name only when that leaves words over.
  const suffix = c.attempt(() => everywhere(c) && pageSuffix(c)) ?? pageSuffix(c)
  if (suffix === null) return null
  if (suffix === 'unknown') return { kind: 'unknown' }
  return { kind: 'replace', from, to, page: suffix.page }
}

/**
 * `Rename Lumen with Lumina [everywhere]`: no quotes anywhere; the first "with"/"to" between spaces that leaves both
 * phrases on one line splits them.
 */
const replaceBare: Grammar = (c) => {
  const { tokens, text } = c
  if (/["“”'‘’`]/.test(text) || !c.phrase('replace', 'change', 'rename') || !isSpace(text[tokens[c.at - 1]!.end])) return null
  // Neither phrase may span a line (the line breaks between words do not count).
  const lineEnd = text.indexOf('\n', tokens[c.at]?.start ?? 0)
  const lastNewline = text.lastIndexOf('\n')
  for (let k = c.at + 1; k < tokens.length - 1; k++) {
    const token = tokens[k]!
    if (lineEnd >= 0 && tokens[k - 1]!.end > lineEnd) return null
    if (token.kind !== 'word' || (token.text !== 'with' && token.text !== 'to')) continue
    if (!isSpace(text[token.start - 1]) || !isSpace(text[token.end]) || tokens[k + 1]!.start < lastNewline) continue
    const from = c.rest(k)
    c.at = k + 1
    const last = tokens.at(-1)!
    const trailing = last.kind === 'word' && last.text === 'everywhere' && isSpace(text[last.start - 1]) && tokens.length - 1 > c.at
    return { kind: 'replace', from, to: c.rest(trailing ? tokens.length - 1 : tokens.length), page: null }
  }
  return null
}

const addPage: Grammar = (c) => {
  if (!c.phrase('add', 'create', 'write')) return null
  c.optional('a', 'new')
  if (!c.phrase('page')) return null
  c.attempt(() => c.phrase('titled', 'called', 'named') || (c.phrase('with') && (c.optional('the'), c.phrase('title'))))
  const title = c.quoted()
  if (title === null) return null
  const group = c.attempt(() => {
    if (!c.phrase('in', 'under', 'to')) return null
    c.optional('the')
    const name = c.quoted()
    if (name !== null) c.phrase('group', 'section')
    return name
  })
  if (c.done) return { kind: 'add-page', title, group, body: null }
  if (!bodyIntro(c)) return null
  return { kind: 'add-page', title, group, body: bodyOf(c.rest()) }
}

const appendSection: Grammar = (c) => {
  if (!c.phrase('append', 'add')) return null
  c.optional('a', 'new')
  if (!c.phrase('section')) return null
  c.optional('titled', 'called', 'named')
  const heading = c.quoted()
  if (heading === null || !c.phrase('to', 'on', 'in', 'at the end of') || c.done) return null
  // The page runs to the first body introduction (or the end): one pass, each place tried with a fixed look-ahead.
  const pageStart = c.at
  for (let k = pageStart + 1; k <= c.tokens.length; k++) {
    c.at = k
    if (k < c.tokens.length && !bodyIntro(c)) continue
    const body = k < c.tokens.length ? bodyOf(c.rest()) : null
    c.at = pageStart
    const raw = c.rest(k)
    if (raw.includes('\n')) return null
    const page = pageRef(raw)
    return page ? { kind: 'append-section', heading, page, body } : null
  }
  return null
}

const fixWord: Grammar = (c) => {
  if (!c.phrase('fix', 'correct')) return null
  c.optional('the')
  if (!c.phrase('misspelling', 'typo', 'spelling')) return null
  c.optional('of')
  const word = c.quoted()
  if (word === null) return null
  const correction = c.attempt(() => (c.mark('->', '→', '=>') || c.phrase('to', 'with', 'as', 'into')) && c.quoted())
  const suffix = pageSuffix(c)
  if (suffix === null) return null
  if (suffix === 'unknown') return { kind: 'unknown' }
  return { kind: 'fix-spelling', word, correction, page: suffix.page }
}

const fixAll: Grammar = (c) => {
  if (!c.phrase('fix', 'correct')) return null
  c.attempt(() => c.phrase('all', 'the'))
  if (!c.phrase('misspellings', 'typos') && !(c.phrase('spelling') && (c.phrase('mistakes'), true))) return null
  if (c.done || (c.phrase('everywhere') && c.done)) return { kind: 'fix-spelling', word: null, correction: null, page: null }
  if (!c.phrase('in') || c.done || c.rest().includes('\n')) return null
  const page = pageRef(c.rest())
  return page ? { kind: 'fix-spelling', word: null, correction: null, page } : { kind: 'unknown' }
}

const GRAMMARS: Grammar[] = [replaceQuoted, replaceBare, addPage, appendSection, fixWord, fixAll]

export function parseInstruction(prompt: string): EditIntent {
  const text = withoutPoliteness(prompt)
  const tokens = tokenize(text)
  for (const grammar of GRAMMARS) {
    const intent = grammar(new Cursor(tokens, text))
    if (intent) return intent
  }
  return { kind: 'unknown' }
}

/** The prompt without "please" / "can you" / "could you" in front and a final "." or "!". */
function withoutPoliteness(prompt: string): string {
  let text = prompt.trim()
  const lower = text.slice(0, 12).toLowerCase()
  for (const lead of ['please', 'can you', 'could you']) {
    if (lower.startsWith(lead) && isSpace(text[lead.length])) {
      text = text.slice(lead.length)
      break
    }
  }
  text = text.trim()
  if (text.endsWith('.') || text.endsWith('!')) text = text.slice(0, -1)
  return text.trim()
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
