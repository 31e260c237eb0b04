/** A deterministic docs site of `count` generated MDX pages with a docs.json, for the speed benchmark. */

const WORDS = (
  'flag flags rollout percentage segment segments target targeting rule rules environment environments production staging ' +
  'sdk key keys token tokens client server context contexts user users attribute attributes experiment experiments metric metrics ' +
  'variation variations default fallback evaluate evaluation cache streaming polling webhook webhooks signature retry timeout ' +
  'project projects team role roles permission permissions audit log billing plan limit limits quota region data residency ' +
  'install configure initialize shutdown close flush event events analytics dashboard cli command commands export import ' +
  'schedule scheduled change changes approval review branch deploy pipeline build test testing mock override local remote ' +
  'proxy relay edge latency bucket hashing seed stable sticky consistent prerequisite dependency archive delete rename ' +
  'migrate migration version versions legacy deprecated endpoint request response error errors status pagination cursor ' +
  'javascript python go react node browser mobile android ios kotlin swift java ruby php rust dotnet elixir'
).split(' ')

const FILLER = 'the a of to and in for with is on that by this be are from as can when your you it'.split(' ')

/** Mulberry32: small, fast, seeded. */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = 'ka lo mi ne ru sa ti vo be da fe gi ho ju ke li mo nu pa qui re so tu va we xi yo za bri cla dro fle gra'.split(' ')

/**
 * The vocabulary of a large docs site: the product's words first, then 20,000 made-up words (names of options,
 * APIs, products), so the corpus has as many distinct terms as 10,000 real pages do.
 */
const VOCABULARY = (() => {
  const rand = random(1)
  const words = new Set(WORDS)
  while (words.size < 20_000) {
    const length = 2 + Math.floor(rand() * 3)
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join(''))
  }
  return [...words]
})()

/** Zipf's law (s = 1): the word of rank r is used about 1/r as often as the commonest, as in real text. */
export function word(rand: () => number): string {
  return VOCABULARY[Math.floor(Math.exp(rand() * Math.log(VOCABULARY.length))) - 1]!
}

function sentence(rand: () => number, length: number): string {
  const out: string[] = []
  for (let i = 0; i < length; i++) out.push(rand() < 0.4 ? FILLER[Math.floor(rand() * FILLER.length)]! : word(rand))
  const text = out.join(' ')
  return text[0]!.toUpperCase() + text.slice(1) + '.'
}

function paragraph(rand: () => number): string {
  const count = 2 + Math.floor(rand() * 4)
  return Array.from({ length: count }, () => sentence(rand, 8 + Math.floor(rand() * 12))).join(' ')
}

function page(rand: () => number, index: number): string {
  const title = `${word(rand)} ${word(rand)} ${index}`
  const lines = [`---`, `title: "${title}"`, `description: "${sentence(rand, 10)}"`, `tags: ["${word(rand)}", "${word(rand)}"]`, `---`, '']
  lines.push(paragraph(rand), '')
  const sections = 3 + Math.floor(rand() * 4)
  for (let s = 0; s < sections; s++) {
    lines.push(`## ${word(rand)} ${word(rand)}`, '', paragraph(rand), '')
    if (rand() < 0.4) lines.push('<Note>', `  ${sentence(rand, 12)}`, '</Note>', '')
    if (rand() < 0.3) lines.push('```bash', `lumen ${word(rand)} ${word(rand)} --${word(rand)}`, '```', '')
    if (rand() < 0.3) lines.push(`### ${word(rand)}`, '', paragraph(rand), '')
  }
  return lines.join('\n')
}

export function generateSite(count: number, seed = 42): Map<string, string> {
  const rand = random(seed)
  const files = new Map<string, string>()
  const groups: Array<{ group: string; pages: string[] }> = []
  for (let i = 0; i < count; i++) {
    const folder = `section-${Math.floor(i / 100)}`
    const path = `${folder}/page-${i}`
    files.set(`${path}.mdx`, page(rand, i))
    if (i % 100 === 0) groups.push({ group: `Group ${i / 100}`, pages: [] })
    groups.at(-1)!.pages.push(path)
  }
  const half = Math.ceil(groups.length / 2)
  files.set(
    'docs.json',
    JSON.stringify({
      name: 'Generated docs',
      navigation: {
        versions: [
          { version: 'v2', groups: groups.slice(0, half) },
          { version: 'v1', groups: groups.slice(half) },
        ],
      },
    }),
  )
  return files
}

/** Queries of 1 to 4 words, as readers type them. */
export function generateQueries(count: number, seed = 7): string[] {
  const rand = random(seed)
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => word(rand)).join(' '))
}
