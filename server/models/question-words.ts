import { contentTerms, STOP_WORDS, WEAK_WORDS } from '../search/terms.ts'

// What a question's wording says beyond its words: the verb it asks to do, what it writes as code, the names it
// capitalises, and what it says the reader owns. The offline answer model reads these (see extractive-answer.ts).

/** "How do I", "how to", "can I", "I want to", "is there a way to": what comes next is the verb of the question. */
const FRAME =
  /^\s*(?:(?:how|where|when)\s+(?:do|can|should|would|could|will)\s+(?:i|we|you|one)|how\s+to|(?:can|could|should|may)\s+(?:i|we|you)|i\s+(?:want|need|would like|'d like)\s+to|is\s+there\s+a\s+way\s+to|help\s+me)\s+/i
const ASKS =
  /^\s*(?:what|which|who|whom|whose|where|when|why|how|is|are|am|do|does|did|can|could|should|would|will|was|were|has|have|my|our|the|a|an)\b/i

/** What a question asks to do, from its verb on ("how do I draw a diagram" → "draw a diagram"), if it asks to do something. */
function askedToDo(question: string): string | undefined {
  const rest = question.replace(FRAME, '')
  return rest === question && ASKS.test(question) ? undefined : rest
}

/** The stem of the verb a question asks to do ("how do I draw …", "draw …"), if it asks to do something. */
export function verbOf(question: string): string | undefined {
  const first = askedToDo(question)?.trim().split(/\s+/)[0]
  return first ? contentTerms(first)[0] : undefined
}

/** A text's words, lower-cased, with their apostrophes and hyphens ("low-speed", "neighbor's"). */
const wordTokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter(Boolean)

/** Words between a verb and its object ("redirect a downspout", "clean my keyboard"). */
const OBJECT_DETERMINERS = new Set('a an the my our your their his her its this that these those some'.split(' '))

/**
 * The stem of the object of the verb a question asks to do ("how to redirect a downspout away from the foundation" →
 * "downspout"): the word after the verb and its determiner, when one follows.
 */
export function objectOf(question: string): string | undefined {
  const rest = askedToDo(question)
  if (rest === undefined) return undefined
  const tokens = wordTokens(rest)
  if (!OBJECT_DETERMINERS.has(tokens[1] ?? '')) return undefined
  return contentTerms(tokens[2] ?? '')[0]
}

/** A question about what something does ("when do airbags deploy?", "why does my sourdough turn out dense?"). */
const ASKS_WHAT_IT_DOES = /^\s*(?:when|why|how often|how long|how)\s+(?:do|does|did|will|would|can|could|should|is|are)\s+/i
/** Most words a passive question's subject runs to before "be". */
const PASSIVE_SUBJECT_WORDS = 3
/** Who asks, not what is asked about. */
const PRONOUNS = new Set('i we you they it he she one this that these those there'.split(' '))

/**
 * The stem of the subject of a question about what something does ("when do airbags deploy in a low-speed crash?" →
 * "airbag"): the word after the auxiliary and any determiner, when a verb follows. Not a pronoun ("how do I …").
 */
export function subjectOf(question: string): string | undefined {
  const frame = ASKS_WHAT_IT_DOES.exec(question)
  if (!frame) return undefined
  const tokens = wordTokens(question.slice(frame[0].length))
  const at = OBJECT_DETERMINERS.has(tokens[0] ?? '') ? 1 : 0
  // A passive question names its subject in full before "be" ("how often should running shoes be replaced?"): the
  // last of those words is the thing asked about, the others say which kind.
  const passive = tokens.indexOf('be', at + 1)
  const subject = passive > at && passive <= at + PASSIVE_SUBJECT_WORDS ? tokens[passive - 1] : tokens[at]
  if (subject === undefined || tokens[at + 1] === undefined || PRONOUNS.has(subject)) return undefined
  return contentTerms(subject)[0]
}

/**
 * The verbs of what a question asks to do: its first clause's (see verbOf), and those of later clauses that ask how
 * to do something ("What's the difference between a tutorial and a how-to guide, and how do I decide which one a page
 * should be?" → "decide"). A later clause without "how do I" or the like tells the reader's story ("we moved our
 * docs"): its first word is no verb asked for.
 */
export function verbsOf(question: string): string[] {
  const [first = '', ...rest] = question.split(CLAUSE_BREAK)
  const asked = rest.filter((clause) => FRAME.test(clause)).map(verbOf)
  return [...new Set([verbOf(first), ...asked].filter((verb) => verb !== undefined))]
}
/**
 * Where a question's clauses may part: punctuation, "and", "but". A part that does not open with "how do I" or the like
 * is read for no verb (see verbsOf), so a split inside a clause ("a tutorial and a how-to guide") costs nothing. No
 * lookahead: recheck cannot prove one linear.
 */
const CLAUSE_BREAK = /[,;.?!:—]+|\s(?:and|but)\s/i

export const withoutCodeSpans = (text: string) => text.replace(/`[^`]*`/g, ' ')

/**
 * What a question writes as code: `inline code`, and words like `docs.json`, `--port`, `api_key`, `openApi`, `v2` or
 * `FALLTHROUGH`.
 */
export function codeIn(question: string): string[] {
  const spans = [...question.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
  const tokens = withoutCodeSpans(question)
    .split(/\s+/)
    .map(withoutPunctuationAround)
    .filter((token) => /\w[._/]\w|^--?\w|\w_|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|^[A-Z][A-Z_]{4,}$/.test(token))
  return [...spans, ...tokens]
}

/** `(docs.json)?` → `docs.json`, `--port,` → `--port`. A scan: a regex anchored at the end is retried at every start. */
function withoutPunctuationAround(token: string): string {
  let end = token.length
  while (end > 0 && !/\w/.test(token[end - 1]!)) end--
  let start = 0
  while (start < end && !/[\w-]/.test(token[start]!)) start++
  return token.slice(start, end)
}

/**
 * The stems of the names a question writes with a capital letter (`Rust`, `PHP`, `Terraform`), not counting a
 * sentence's first word, which is capitalised whatever it is.
 */
export function namesIn(question: string): Set<string> {
  const names = new Set<string>()
  for (const sentence of question.split(/[.?!:]\s+/)) {
    const words = sentence.trim().split(/\s+/).slice(1)
    for (const word of words) {
      if (!/^["'“(`]?\p{Lu}/u.test(word) || CALENDAR.has(word.toLowerCase().replace(/[^a-z]/g, ''))) continue
      for (const stem of contentTerms(word)) names.add(stem)
    }
  }
  return names
}

/** Days and months: English capitalises them, but they name a time, not a thing the docs must speak of ("on a Saturday"). */
const CALENDAR = new Set(
  `monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays
  january february march april june july august september october november december`.split(/\s+/),
)

/**
 * Words that end a possessive's (or "for"'s) noun phrase: prepositions, conjunctions, what starts a clause, and
 * adverbs ("my keys safely", "my flag fast", "our docs again").
 */
const PHRASE_END = new Set(
  [
    'to for on in at into onto from with without by of about as and or but so that which who when where while if then than',
    'is are was were be do does can will fast faster again now too instead already anymore later first here there also',
    'only even just yet still ever often always never soon today',
    // Prepositions the list above lacks, and adverbs that do not end in -ly: "our docs deployment halfway through a
    // billing period" is about the deployment, not "halfway".
    'through after before during until till between within via under over like since upon per around across behind beside',
    'halfway midway away anyway anywhere everywhere somewhere nowhere elsewhere together apart ago once twice forever',
    'sometimes meanwhile afterwards beforehand yesterday tomorrow tonight overnight',
    // A verb of how the thing seems or what it has ends the phrase: "our site seems to drop pages" is about the site.
    'seem seems seemed look looks looked appear appears appeared has have had keeps kept gets got',
  ]
    .join(' ')
    .split(' '),
)
/** Words after which a clause starts. */
const CLAUSE_START = new Set('and but so because since when if while although though then'.split(' '))
const opensClause = (previous: string | undefined) => previous === undefined || CLAUSE_START.has(previous)

/** Words whose "'s" is "is", "has" or "us" ("that's happening", "it's", "let's"), not a possessive. */
const CONTRACTED = new Set('it that what there here where who how let he she when why this'.split(' '))

/** Whether a (lower-cased) word ends a noun phrase: a word of PHRASE_END, or an adverb in -ly ("my keys safely"). */
const endsPhrase = (word: string) => PHRASE_END.has(word) || word.endsWith('ly')

/** A question's words as written: curly apostrophes made straight, apostrophes, dots and hyphens kept ("neighbor's", "docs.json"). */
const writtenWords = (question: string) =>
  question
    .replace(/[’]/g, "'")
    .split(/[^\p{L}\p{N}'.-]+/u)
    .filter(Boolean)

/** A verb's past form ("failed", "flatlined"), not a noun in -eed or a short word ("need", "bed"). */
const PAST = /^[\p{L}-]{3,}[^e]ed$/u

/** Most words a possessive's noun phrase is read for ("my broken washing machine"). */
const PHRASE_WORDS = 3

/**
 * The stems of what a question says the reader (or someone) owns, or what they want a thing for: the words after
 * "my", "our" or "their" up to a preposition or clause ("my broken washing machine", "our bakery"), a possessor and
 * what follows it ("a neighbor's view", "my car's GPS"), and the last word of what follows "for" ("an app for hiking",
 * not "nodejs" in "a proxy for the nodejs sdk").
 */
export function readersThings(question: string): string[] {
  const words = writtenWords(question)
  const tokens = words.map((token) => token.toLowerCase())
  const things: string[] = []
  const phraseAfter = (i: number) => {
    const phrase: string[] = []
    for (const written of words.slice(i + 1, i + 1 + PHRASE_WORDS)) {
      // A sentence's end ends the phrase ("on my images. whats the workaround…"); its dot is kept as written
      // ("docs.json").
      const sentenceEnds = written.endsWith('.')
      const word = unpunctuated(written)
      const next = word.toLowerCase()
      if (endsPhrase(next)) break
      // After its noun, a word in -ed says what happened to the thing ("our dashboard flatlined", "my build failed"),
      // as in nounPairs; before it, which one ("my signed certificate").
      if (phrase.length > 0 && PAST.test(next)) break
      // A value the reader writes ("our G-XXXX measurement ID", "my UA-12345 property") is not a thing of theirs.
      if (!isValue(word)) phrase.push(...contentTerms(next.replace(/'s?$/, '')))
      if (sentenceEnds) break
    }
    return phrase
  }
  tokens.forEach((token, i) => {
    const possessor = token.includes("'") && /^[\p{L}\p{N}-]+'s?$/u.test(token) && !CONTRACTED.has(token.replace(/'s$/, ''))
    if (possessor) things.push(...contentTerms(token.replace(/'s?$/, '')), ...phraseAfter(i))
    // "My boss wants a PDF export": a possessive that opens the question (or a clause) names who asks, not what about.
    else if ((token === 'my' || token === 'our' || token === 'their') && !opensClause(tokens[i - 1])) things.push(...phraseAfter(i))
    else if (token === 'for') things.push(...phraseAfter(i).slice(-1))
  })
  return things
}

/** Words that may open a question's first noun phrase: who it belongs to, or which one. */
const OPENING_DETERMINERS = new Set('my our their your the a an'.split(' '))

/**
 * The stem of what a question that opens on a statement speaks of: the last word of its opening noun phrase, when a
 * verb of how that thing is or behaves ends the phrase ("toilet keeps running after I flush", "our kitchen faucet
 * keeps dripping", "the webhook seems to fire twice"). Not a question word's frame ("how do I…"), nor a phrase the
 * first PHRASE_WORDS words do not end.
 */
export function openingThing(question: string): string | undefined {
  const tokens = writtenWords(question).map((token) => token.toLowerCase())
  if (QUESTION_WORDS.has(tokens[0] ?? '')) return undefined
  const start = OPENING_DETERMINERS.has(tokens[0] ?? '') ? 1 : 0
  const phrase = tokens.slice(start, start + PHRASE_WORDS + 1)
  const end = phrase.findIndex(endsPhrase)
  if (end < 1 || !OPENING_VERBS.has(phrase[end]!)) return undefined
  return contentTerms(phrase[end - 1]!)[0]
}

/** Words that open a question's frame ("how long is…"): what follows is not a thing that behaves. */
const QUESTION_WORDS = new Set(
  'how what which why when where who whose whom is are was were do does did can could should would will'.split(' '),
)

/** Verbs that say how a thing is or behaves, which end an opening noun phrase (see openingThing). */
const OPENING_VERBS = new Set('is are was were keeps kept seem seems seemed has have had gets got'.split(' '))

/** An ID or a placeholder as written: with a digit ("UA-12345"), or in capitals around a hyphen ("G-XXXX"). */
const isValue = (written: string) => /\p{N}/u.test(written) || /^\p{Lu}+-\p{Lu}+$/u.test(written)

/** Words that open a noun phrase ("a", "my", "which"); not "this" or "that", as often a pronoun ("does this support strikethrough?"). */
const DETERMINERS = new Set('a an the my our your their his her its which what each every any some another'.split(' '))
const TOKEN = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu
/** Prepositions the stop words leave out: "a border around an image" names a border. */
const PREPOSITIONS = new Set(
  'around across along among behind beside besides beyond inside outside near toward towards against per'.split(' '),
)

/**
 * Words that describe a thing without naming a kind of it ("a single row", "a big table", "a newer version"): read
 * past, as everyday words.
 */
const DESCRIBING = new Set(
  [
    'old big small large little short tiny huge same other next last single simple quick nice great',
    // Comparatives: "a newer version" is a version, "a faster way" a way.
    'newer older bigger smaller larger shorter longer faster slower better worse higher lower easier simpler cheaper',
  ]
    .join(' ')
    .split(' '),
)
/** Most everyday words read past between a determiner and the pair it opens. */
const MAX_EVERYDAY = 2

/**
 * The stems of the two-word noun phrases a question names after a determiner ("a cover letter", "my bank account",
 * "which analytics degree"): one thing, the second word saying what it is and the first which one. Read only where the
 * phrase ends (punctuation, a stop word or the question's end follows): "which buttons readers click" names none.
 */
export function nounPairs(question: string): Array<[string, string]> {
  const tokens = question.toLowerCase().match(TOKEN) ?? []
  const pairs: Array<[string, string]> = []
  const wordStem = (token: string | undefined) => {
    // An adverb ("my rollout safely") says how, not what.
    if (token === undefined || WEAK_WORDS.has(token) || PREPOSITIONS.has(token) || token.endsWith('ly')) return undefined
    const terms = contentTerms(token)
    return terms.length === 1 ? terms[0] : undefined
  }
  tokens.forEach((token, i) => {
    if (!DETERMINERS.has(token)) return
    // "a first half marathon", "a single row": an everyday or describing word before the pair says which, not what.
    let at = i + 1
    while (at < i + 1 + MAX_EVERYDAY && (WEAK_WORDS.has(tokens[at] ?? '') || DESCRIBING.has(tokens[at] ?? ''))) at++
    const first = wordStem(tokens[at])
    // "a pdf stored in my repo": a word in -ed after the noun says what was done to it.
    const second = tokens[at + 1]?.endsWith('ed') ? undefined : wordStem(tokens[at + 1])
    const next = tokens[at + 2]
    // "A visitor closes the banner": a word before a determiner is a verb, with its object next.
    // An adverb ends it too: "a washing machine usually fails" names a washing machine.
    const ends =
      (next === undefined || STOP_WORDS.has(next) || PREPOSITIONS.has(next) || next.endsWith('ly') || !/[\p{L}\p{N}]/u.test(next)) &&
      !DETERMINERS.has(next ?? '')
    if (first && second && first !== second && ends) pairs.push([first, second])
  })
  return pairs
}

/** A token a formula is made of: operands and operators only ("3x", "=", "1/(x", "3)"). */
const FORMULA_TOKEN = /^[\p{L}\p{N}().^+*/=-]+$/u
/** What makes such a token part of a formula rather than a word ("low-speed" has a hyphen, no digit: see formulasIn). */
const FORMULA_MARK = /[\p{N}()+*/^=-]/u
/** Most characters a formula's token runs to. */
const MAX_FORMULA_TOKEN = 16
/** A variable: a single x, y, z or n, alone or after its coefficient ("3x"). */
const VARIABLE = /(?:^|[^\p{L}])[xyzn](?:[^\p{L}]|$)/u
/** A variable with its coefficient ("3x"): a formula even without "=" ("simplify 2x - 5"). */
const COEFFICIENT = /\p{N}[xyzn](?:[^\p{L}]|$)/u

/**
 * A token without the punctuation a sentence puts after it ("3)?" → "3)", "images." → "images"). A scan: a regex anchored
 * at the end is retried at every start (see withoutPunctuationAround).
 */
function unpunctuated(token: string): string {
  let end = token.length
  while (end > 0 && '?!,.:;'.includes(token[end - 1]!)) end--
  return token.slice(0, end)
}

/**
 * The formulas a question writes outside code, spaces left out ("3x+7=22"): runs of operands and operators with a
 * variable, a number, an operator, and an equals sign, a power or a coefficient ("3x"). Not "n + 1 queries", "a
 * 1200 x 630 image" nor "low-speed". Docs questions name their settings in words or in code (`limit=50`); a formula in a
 * variable is someone's algebra. Read token by token: one pattern over the text was polynomial (see
 * tests/agent/regex-linearity.test.ts).
 */
export function formulasIn(question: string): string[] {
  const runs: string[] = []
  let run = ''
  for (const written of `${withoutCodeSpans(question)} `.split(' ')) {
    const token = unpunctuated(written)
    const inFormula =
      token.length > 0 && token.length <= MAX_FORMULA_TOKEN && FORMULA_TOKEN.test(token) && (FORMULA_MARK.test(token) || token.length === 1)
    if (inFormula) run += token.toLowerCase()
    if ((!inFormula || token !== written) && run) {
      runs.push(run)
      run = ''
    }
  }
  return runs.filter(
    (formula) =>
      /\p{N}/u.test(formula) && /[-+*/^=]/.test(formula) && VARIABLE.test(formula) && (/[=^]/.test(formula) || COEFFICIENT.test(formula)),
  )
}
