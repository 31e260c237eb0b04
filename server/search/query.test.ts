import { expect, test } from 'vitest'
import {
  asksAboutReaders,
  asksThroughApi,
  isWeak,
  namesPathOnHost,
  parseQuery,
  queryText,
  SYNONYM_WEIGHT,
  withoutPlaceOnPage,
} from './query.ts'

const terms = (text: string) => parseQuery(text).words.map((word) => word.terms.map((t) => `${t.word}:${t.weight}`).join(' '))

test('a question is read into words, each with its synonyms at a lower weight', () => {
  expect(terms('How do I delete a repo?')).toEqual([`delete:1 remove:${SYNONYM_WEIGHT}`, `repo:1 repository:${SYNONYM_WEIGHT}`])
  // Readers say "people" where docs say users, visitors or readers ("how many people visited my docs").
  expect(terms('people')).toEqual([`people:1 users:${SYNONYM_WEIGHT} visitors:${SYNONYM_WEIGHT} readers:${SYNONYM_WEIGHT}`])
  // and "host" a file where docs say it is served.
  expect(terms('host a pdf')).toEqual([`host:1 serve:${SYNONYM_WEIGHT}`, 'pdf:1'])
  // and "stop" something from happening where docs say prevent ("stop search engines from indexing a page").
  expect(terms('stop indexing')).toEqual([`stop:1 prevent:${SYNONYM_WEIGHT}`, expect.stringMatching(/^indexing:1 crawl:/)])
  // and "fetch" what an API reference calls get or retrieve ("Get page content").
  expect(terms('fetch')).toEqual([`fetch:1 retrieve:${SYNONYM_WEIGHT} get:${SYNONYM_WEIGHT}`])
  // and ask whether something is "finished yet" where an API reference says status ("Get export job status").
  expect(terms('is my export finished yet')).toEqual([`finished:${SYNONYM_WEIGHT} status:1`, 'export:1'])
  expect(terms('check whether the deployment has finished')).toEqual([`finished:${SYNONYM_WEIGHT} status:1`, 'check:1', 'deployment:1'])
  // A reader's "link" to a preview is what docs call its URL ("Get unique preview URLs for each pull request").
  expect(terms('get a link to the preview')).toEqual([`link:1 url:${SYNONYM_WEIGHT}`, 'preview:1'])
  // A "typeface" is a font, "similar" pages are related ones, and who changed something is in an audit log.
  expect(terms('typeface')).toEqual([`typeface:1 font:${SYNONYM_WEIGHT} typefaces:${SYNONYM_WEIGHT}`])
  expect(terms('our brand typefaces')).toContainEqual(expect.stringContaining(`font:${SYNONYM_WEIGHT}`))
  // A "cap" is a limit.
  expect(terms('daily request cap')[2]).toBe(
    `cap:1 limit:${SYNONYM_WEIGHT} maximum:${SYNONYM_WEIGHT} max:${SYNONYM_WEIGHT} quota:${SYNONYM_WEIGHT}`,
  )
  // Asked how often something may be called, the reader asks for its limit ("5 requests per minute") or how often it is
  // done ("Establish a review schedule"); a call of an API is a request.
  expect(terms('how often can I call this?')).toEqual([
    `often:${SYNONYM_WEIGHT} limit:1 maximum:1 max:1 quota:1 cap:1 frequency:1 schedule:1 cadence:1 regularly:1`,
    `call:1 request:${SYNONYM_WEIGHT}`,
  ])
  expect(terms('how many times can I retry')[0]).toBe(`times:${SYNONYM_WEIGHT} limit:1 maximum:1 max:1 quota:1 cap:1`)
  // A diagram or a screenshot on a page is one of its images ("Disable image zoom").
  expect(terms('stop the zoom on a diagram')[2]).toBe(
    `diagram:1 image:${SYNONYM_WEIGHT} picture:${SYNONYM_WEIGHT} photo:${SYNONYM_WEIGHT} screenshot:${SYNONYM_WEIGHT}`,
  )
  // Can't "get into" the dashboard is can't access it; to "reach" the docs team is to contact them.
  expect(terms("can't get into the dashboard, how do I reach you")).toEqual([
    'access:1',
    'dashboard:1',
    `reach:1 contact:${SYNONYM_WEIGHT}`,
  ])
  // What something does when it "starts out" so is what it does by default (`defaultOpen`).
  expect(terms('can it start out already open')[0]).toBe(`start:${SYNONYM_WEIGHT} default:1 initially:1`)
  // Getting every one of a kind is listing it ("List agent jobs").
  expect(terms('get every agent job')).toEqual(['list:1', 'agent:1', 'job:1'])
  // and a "collapsible" item an accordion.
  expect(terms('a collapsible faq item')).toEqual([`collapsible:1 accordion:${SYNONYM_WEIGHT}`, 'faq:1', 'item:1'])
  expect(terms('similar pages')).toEqual([`similar:1 related:${SYNONYM_WEIGHT}`, 'pages:1'])
  expect(terms('see who changed the settings')).toEqual([`changed:${SYNONYM_WEIGHT} audit:1`, 'see:1', 'settings:1'])
})

test('a phrase with synonyms is one word searched by them: "turn off" is disable; "my own" alone is custom', () => {
  expect(terms('how do I turn off the assistant')).toEqual([
    `turn:${SYNONYM_WEIGHT} off:${SYNONYM_WEIGHT} disable:1 deactivate:1`,
    `assistant:1 chatbot:${SYNONYM_WEIGHT}`,
  ])
  expect(terms('how do I use my own?')).toEqual(['own:0.6 custom:1'])
  // "Page through the results" is what API references call pagination.
  expect(terms('how do I page through all the results')[0]).toContain('pagination:1')
  // Thumbs up or down, and ratings, are what docs call feedback.
  expect(terms('export the thumbs up/down ratings')[0]).toContain('feedback:1')
  expect(terms('where are page ratings')[1]).toContain(`feedback:${SYNONYM_WEIGHT}`)
  // A network with no internet access is what docs call offline; "on-prem" is on-premise; narrowing down is filtering.
  expect(terms('customers with no internet access')[0]).toContain('offline:1')
  expect(terms('they run on-prem')[1]).toContain('premise')
  expect(terms('can I narrow this down to errors')[0]).toContain('filter:1')
  // An earlier copy is a previous version; how long logs are kept is their retention; a rebuild is a redeploy.
  expect(terms('go back to an earlier copy')).toContainEqual(expect.stringContaining('previous'))
  expect(terms('how long are logs kept')).toContainEqual(expect.stringContaining('retention'))
  expect(terms('force a rebuild')).toContainEqual(expect.stringContaining('redeploy'))
  // Work in progress is a draft, going live is publishing, a client library an SDK, a socket a WebSocket; the sidebar is
  // the navigation, crawling is indexing, enlarging an image zooming it.
  expect(terms('keep work-in-progress files')[0]).toContain('draft:1')
  expect(terms('without them going live')[0]).toContain('publish:1')
  expect(terms('our python client library')).toContainEqual(expect.stringContaining('sdk:1'))
  expect(terms('a socket-based api')[0]).toContain(`websocket:${SYNONYM_WEIGHT}`)
  expect(terms('pages missing from my sidebar')).toContainEqual(expect.stringContaining(`navigation:${SYNONYM_WEIGHT}`))
  expect(terms('let google crawl every page')).toContainEqual(expect.stringContaining(`indexing:${SYNONYM_WEIGHT}`))
  expect(terms('stop images enlarging on click')).toContainEqual(expect.stringContaining(`zoom:${SYNONYM_WEIGHT}`))
  // A hotkey is a keyboard shortcut, WYSIWYG the visual mode, an AI tool's rules its instructions.
  expect(terms('hotkey for bold')[0]).toContain(`shortcut:${SYNONYM_WEIGHT}`)
  expect(terms('the wysiwyg view')[0]).toContain(`visual:${SYNONYM_WEIGHT}`)
  expect(terms('our writing rules')).toContainEqual(expect.stringContaining(`instructions:${SYNONYM_WEIGHT}`))
  // Signing up is registering, not signing on: "just signed up" found single sign-on first.
  expect(terms('just signed up')[0]).toBe(`signed:${SYNONYM_WEIGHT} up:${SYNONYM_WEIGHT} signup:1 register:1 registration:1`)
  // A warning box is a callout; kicking off a job is triggering it.
  expect(terms('put a warning box in a page')).toContainEqual(
    `box:1 callout:${SYNONYM_WEIGHT} callouts:${SYNONYM_WEIGHT} boxes:${SYNONYM_WEIGHT}`,
  )
  expect(terms('kick off the docs agent')[0]).toContain('trigger:1')
  // "See also" pages are related ones, a skeleton is a template, by hand is manually, the AI chat the assistant.
  expect(terms("a 'see also' list")).toContainEqual(expect.stringContaining('related:1'))
  expect(terms('a skeleton I can copy')).toContainEqual(expect.stringContaining(`template:${SYNONYM_WEIGHT}`))
  expect(terms('write it by hand')).toContainEqual(expect.stringContaining('manual:1'))
  expect(terms('what people ask the AI chat')).toContainEqual(expect.stringContaining('assistant:1'))
  // Readers who "leave right away" are what analytics calls bouncing.
  expect(terms('readers leave right away')).toContainEqual(expect.stringContaining('bounce:1'))
  // Asked whether an endpoint is "still supported", the reader asks whether it is deprecated.
  expect(terms('is that endpoint still supported?')).toContainEqual(expect.stringContaining('deprecated:1'))
  // A button's own text is what components call its call to action (`cta`).
  expect(terms('my own button text')).toContainEqual(expect.stringContaining(`cta:${SYNONYM_WEIGHT}`))
})

test('a phrase that holds its object in the middle is read as the phrase: "turn this on", "set it up", "turn the lights off"', () => {
  const first = (text: string) => terms(text)[0]
  expect(first('how do I turn this on?')).toBe(terms('how do I turn on')[0])
  expect(first('can I set it up in CI?')).toBe(terms('can I set up')[0])
  expect(first('how do I roll them back')).toBe(terms('how do I roll back')[0])
  expect(first('switch it off for one page')).toContain('disable:1')
  // So with a thing of one or two words between, named with "the", "my", "our" or "your": "turn the lights off".
  expect(first('how do I turn the lights off at night')).toBe(terms('how do I turn off')[0])
  expect(first('can I turn the feedback widget off')).toBe(terms('can I turn off')[0])
  // Only the phrases the synonyms know: "put the page on" is words.
  expect(terms('put the page on')).toEqual(terms('put page'))
  // A service named between "is" and "down" is what is down: the question asks about an outage.
  for (const question of ['is mintlify down right now', 'is lumen flags down', 'is the dashboard down?', 'our api went down']) {
    expect(
      terms(question).some((word) => word.includes('outage:1')),
      question,
    ).toBe(true)
  }
  expect(terms('scroll down the page').some((word) => word.includes('outage'))).toBe(false)
})

test('context words join at their own weight without repeating the question, and do not count unless asked to', () => {
  const { words } = parseQuery('custom fonts', [{ text: 'Fonts and colors', weight: 0.3 }])
  expect(words.map((word) => [word.terms[0]!.word, word.weight, word.counts])).toEqual([
    ['custom', 1, true],
    ['fonts', 1, true],
    ['colors', 0.3, false],
  ])
  expect(queryText(parseQuery('custom fonts', [{ text: 'colors', weight: 1, counts: true }]))).toBe('custom fonts colors')
})

test("the reader's time frame is not a topic: 'last week' does not search session lifetimes, nor 'week'", () => {
  const words = (text: string) => parseQuery(text).words.map((word) => word.terms[0]!.word)
  expect(words('how many people visited my docs last week')).toEqual(['people', 'visited', 'docs'])
  expect(words('searches in the past 30 days')).toEqual(['searches'])
  expect(words('what failed yesterday')).toEqual(['failed'])
  expect(words('I pushed a few commits an hour ago')).toEqual(['pushed', 'commits'])
  expect(words('it broke two days ago')).toEqual(['broke'])
  expect(words('builds that failed days ago')).toEqual(['builds', 'failed'])
  // "Is the api down" is the phrase "is down" (an outage), about the API.
  expect(words('is the api down right now')).toEqual(['down', 'api'])
  // "last" as a verb still means how long something lives.
  expect(
    parseQuery('how long does a session last')
      .words.find((word) => word.terms[0]!.word === 'last')
      ?.terms.map((t) => t.word),
  ).toContain('lifetime')
})

test('an age names a person (a kid or an adult), not a year or something old', () => {
  const words = (text: string) => parseQuery(text).words.map((word) => word.terms[0]!.word)
  expect(words('how many hours of sleep does a 7-year-old need')).toEqual(['hours', 'sleep', 'kid'])
  expect(words('my 15 year old and her two months old sister')).toEqual(['kid', 'sister'])
  expect(words('resting heart rate for a 40 year old')).toEqual(['resting', 'heart', 'rate', 'adult'])
  // Not an age: a key a year old is still about keys and years.
  expect(words('rotate a key older than one year')).toEqual(['rotate', 'key', 'older', 'year'])
})

test('amounts and the words of a question form name no subject; an HTTP status or an error code does', () => {
  const weak = (text: string) => parseQuery(text).words.map((word) => `${word.terms[0]!.word}:${isWeak(word) ? 'weak' : 'subject'}`)
  expect(weak('what is the difference between temporary and permanent flags')).toEqual([
    'difference:weak',
    'between:weak',
    'temporary:subject',
    'permanent:subject',
    'flags:subject',
  ])
  expect(weak('upload 2 million ids over 100k 500mb')).toEqual([
    'upload:subject',
    '2:weak',
    'million:weak',
    'ids:subject',
    '100k:weak',
    '500mb:weak',
  ])
  expect(weak('merge two branches')).toEqual(['merge:subject', 'two:weak', 'branches:subject'])
  // How much, how the reader feels and whether it can be done say how they ask, not what about.
  expect(weak('is it doable for a bunch of pages? a bit scared')).toEqual(['bunch:weak', 'pages:subject', 'bit:weak', 'scared:weak'])
  // "New" describes what it names ("a new announcement"), and "brand-new" is new.
  expect(weak('post a brand-new announcement')).toEqual(['brand:weak', 'post:subject', 'announcement:subject'])
  // A dismissible banner is one a reader can close.
  expect(parseQuery('close the banner').words[0]!.terms.map((t) => t.word)).toContain('dismissible')
  // A replacement is what a deprecated thing points to.
  expect(parseQuery('is there a replacement').words[0]!.terms.map((t) => t.word)).toContain('deprecated')
  // An office's wifi is a corporate network.
  expect(parseQuery('office wifi').words.flatMap((word) => word.terms.map((t) => t.word))).toEqual(
    expect.arrayContaining(['corporate', 'network']),
  )
  expect(weak('what does 429 mean after E104')).toEqual(['429:subject', 'e104:subject'])
})

test('a place on a docs site ("in a page") is light context, not a word the answer must hold', () => {
  const { question, place } = withoutPlaceOnPage('put a warning box in a page')
  expect(question.trim()).toBe('put a warning box')
  expect(place).toEqual([{ text: 'page', weight: expect.any(Number), counts: false }])
  expect(place[0]!.weight).toBeLessThan(1)
  expect(withoutPlaceOnPage('add my own javascript to every page').question.trim()).toBe('add my own javascript')
  // Where the page is what is asked about, or the question is only the place, it stays.
  for (const kept of ['get a markdown version of a page', 'on this page', 'page titles in the sidebar']) {
    expect(withoutPlaceOnPage(kept)).toEqual({ question: kept, place: [] })
  }
})

test('a question asks for the API when it names it after a word that says how, and not for its credentials', () => {
  for (const question of [
    'export feedback through the API',
    'using our own API',
    'an API call to trigger a preview',
    'from a script',
    'via the api key or via the api',
  ]) {
    expect(asksThroughApi(question), question).toBe(true)
  }
  // `via api key api`: the second "api" is not after a word that says how ("key" is not one).
  for (const question of ['with an API key', 'in the API token settings', 'via api key api', 'what is an api']) {
    expect(asksThroughApi(question), question).toBe(false)
  }
  expect(asksThroughApi('IN AN '.repeat(100_000))).toBe(false)
  expect(asksThroughApi(`through the ${'api key '.repeat(50_000)}`)).toBe(false)
})

test('a question asks what readers do on the docs when people, readers or visitors come with what a reader does', () => {
  for (const question of [
    'how many people visited the docs last month',
    'what are people asking the assistant',
    'see where readers go next after landing on a page',
    'which visitors click the button',
    'how many page views did the quickstart get',
    'see what people type into the docs search',
  ]) {
    expect(asksAboutReaders(question), question).toBe(true)
  }
  // People as a product's users, or in a limit: not readers of the docs.
  for (const question of ['how many people can join a room', 'what people should I invite', 'how many users see variation b']) {
    expect(asksAboutReaders(question), question).toBe(false)
  }
  expect(asksAboutReaders(`what people ${'a '.repeat(50_000)}`)).toBe(false)
})

test('a path on a host is where a site is served; a file path, a version or a sentence end is not', () => {
  for (const question of ['serve the docs at example.com/docs', 'at https://acme.co.uk/help?', 'docs-site.io/Guides']) {
    expect(namesPathOnHost(question)).toBe(true)
  }
  for (const question of ['edit docs.json/navigation', 'ai sdk 4.0/5.0', 'see example.com. /docs', 'example.com/', 'a/b.c']) {
    expect(namesPathOnHost(question)).toBe(false)
  }
  // Read word by word: a long run of host characters costs one pass.
  expect(namesPathOnHost(`${'a-'.repeat(50_000)}.x`)).toBe(false)
})
