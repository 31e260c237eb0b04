import { beforeAll, describe, expect, it } from 'vitest'
import { readDocsTree } from '../../server/automations/docs-tree.ts'
import { applyFileEdits } from '../../server/automations/edits.ts'
import { fixTypos } from '../../server/automations/typos/fix-typos.ts'
import { loadEnglishSpeller, type Speller } from '../../server/automations/typos/speller.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { mintlifyEnglish, mintlifyPresent as hasMintlify } from './corpora.ts'

const mintlifyPresent = hasMintlify('typo')

/**
 * Misspellings from Wikipedia's "Lists of common misspellings" and the usual suspects in technical writing, with the
 * word meant. The checker has no list of misspellings: it must work each out from the dictionary.
 */
const REAL_WORLD = (
  'recieve receive|seperate separate|enviroment environment|dependancy dependency|occured occurred|definately definitely|' +
  'accomodate accommodate|untill until|acheive achieve|adress address|begining beginning|beleive believe|calender calendar|' +
  'commited committed|completly completely|concious conscious|existance existence|foriegn foreign|goverment government|' +
  'grammer grammar|immediatly immediately|independant independent|knowlege knowledge|libary library|maintainance maintenance|' +
  'neccessary necessary|noticable noticeable|occurence occurrence|paramter parameter|persistant persistent|posible possible|' +
  'prefered preferred|publically publicly|recomend recommend|refered referred|reponse response|succesful successful|' +
  'sucess success|thier their|tommorow tomorrow|truely truly|usefull useful|wierd weird|writting writing|accross across|' +
  'agressive aggressive|apparantly apparently|arguement argument|buisness business|collegue colleague|comittee committee|' +
  'enviornment environment|explaination explanation|familar familiar|finaly finally|fourty forty|futher further|' +
  'gaurantee guarantee|happend happened|harrass harass|hierachy hierarchy|intial initial|lenght length|millenium millennium|' +
  'mispell misspell|occassion occasion|peice piece|posession possession|preceeding preceding|questionaire questionnaire|' +
  'relevent relevant|remeber remember|resouce resource|rythm rhythm|sieze seize|similiar similar|supress suppress|' +
  'tempory temporary|threshhold threshold|tounge tongue|unfortunatly unfortunately|wether whether|wich which|' +
  'authentification authentication|configuraton configuration|dependecies dependencies|funtion function|retreive retrieve|' +
  'seperately separately|accesible accessible|availabe available|compatable compatible|instanciate instantiate|' +
  'overriden overridden|sucessfully successfully|transfered transferred'
)
  .split('|')
  .map((pair) => pair.split(' ') as [string, string])

describe('fix typos on demo/docs with planted real-world misspellings', () => {
  let speller: Speller
  let files: Map<string, string>
  beforeAll(async () => {
    speller = await loadEnglishSpeller()
    files = (await readDirectory('demo/docs')).files
  })

  it('corrects none of the demo as shipped', () => {
    expect(fixTypos(readDocsTree(files), { speller }).edits).toEqual([])
  })

  it('corrects most planted misspellings, none wrongly, and lists most of the rest with the right suggestion', () => {
    const planted = new Map(files)
    const pages = [...files.keys()].filter((file) => file.endsWith('.mdx') && !file.startsWith('snippets/'))
    // One sentence a misspelling, spread over the pages, at the end of each (prose).
    REAL_WORLD.forEach(([wrong], i) => {
      const file = pages[i % pages.length]!
      planted.set(file, `${planted.get(file)}\nA note: this ${wrong} is planted.\n`)
    })
    // Misspellings in code, URLs, attributes and identifiers, which must stay as written.
    const code =
      '\n```bash\nlumen --enviroment prod --seperate\n```\n\nCall `recieve()` or visit https://example.com/occured, <Card title="x" href="/definately" />, recieveAll and DEPENDANCY_ID.\n'
    planted.set('guides/testing.mdx', `${planted.get('guides/testing.mdx')}${code}`)

    const { edits, report } = fixTypos(readDocsTree(planted), { speller })
    const fixed = applyFileEdits(planted, edits)
    const right = new Map(REAL_WORLD)
    const corrections = report.misspellings.filter((item) => item.correction)
    const wrong = corrections.filter((item) => right.get(item.word) !== item.correction)
    const listedRight = report.misspellings.filter((item) => !item.correction && item.suggestions[0] === right.get(item.word))
    console.log(
      `planted ${REAL_WORLD.length} misspellings: ${corrections.length} corrected (${wrong.length} wrongly), ` +
        `${listedRight.length} listed with the right word first, ${REAL_WORLD.length - corrections.length - listedRight.length} missed`,
    )
    expect(wrong).toEqual([])
    expect(corrections.length).toBeGreaterThanOrEqual(60)
    expect(corrections.length + listedRight.length).toBeGreaterThanOrEqual(80)
    // Only the planted words changed: every corrected file is the planted one with those words replaced.
    for (const [file, text] of fixed) {
      const expected = corrections
        .filter((item) => item.file === file)
        .reduce((out, item) => out.replace(` ${item.word} is planted`, ` ${item.correction} is planted`), planted.get(file)!)
      expect(text).toBe(expected)
    }
    expect(fixed.get('guides/testing.mdx') ?? planted.get('guides/testing.mdx')).toContain(code)
  })
})

describe.skipIf(!mintlifyPresent)('fix typos on the Mintlify docs (English pages)', () => {
  it('makes only corrections checked by hand, and lists little', async () => {
    const speller = await loadEnglishSpeller()
    const english = await mintlifyEnglish()
    const { report } = fixTypos(readDocsTree(english), { speller })
    expect(report.words).toBeGreaterThan(100_000)
    expect(report.misspellings.filter((item) => item.correction).map((item) => `${item.file}: ${item.word} → ${item.correction}`)).toEqual([
      'changelog.mdx: keybaord → keyboard',
    ])
    expect(report.listed).toBeLessThan(40)
  }, 300_000)
})
