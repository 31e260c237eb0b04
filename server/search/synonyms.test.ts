import { expect, test } from 'vitest'
import { parseQuery } from './query.ts'
import { findPhrases } from './synonyms.ts'

const rest = (text: string) => findPhrases(text).rest
/** Every word a question searches: its own, and its synonyms. */
const termsOf = (question: string) => parseQuery(question).words.flatMap((word) => word.terms.map((term) => term.word))

test('time frames are cut out, with or without an amount', () => {
  expect(rest('what happened in the last 3 days and yesterday')).toBe('what happened   and')
  expect(rest('in the past couple of weeks')).toBe('')
  expect(rest('the next weekend at the moment')).toBe('')
  // "Pages load fine at first but…": when, not a first change or first steps.
  expect(rest('pages load fine at first but then fail')).toBe('pages load fine   but then fail')
  expect(rest('r\u0000'.repeat(100_000))).toBe('r '.repeat(100_000).trim())
})

test('the service between "is" and "down" goes after the phrase; the space after one match may begin the next', () => {
  expect(findPhrases('is the dashboard down?')).toEqual({
    phrases: [{ found: 'is down', alternatives: expect.arrayContaining(['outage']) }],
    rest: 'the dashboard',
  })
  expect(rest('is x down is y down ok')).toBe('x y ok')
  expect(rest('is the api down downtime')).toBe('the api downtime')
  expect(rest(`${' is ytur'.repeat(100_000)}s`)).toBe(`${' is ytur'.repeat(100_000)}s`.trim())
  expect(rest('is x down '.repeat(100_000))).toBe('x '.repeat(100_000).trim())
})

test("readers' words for screens and sides are searched as the docs write them", () => {
  expect(findPhrases('a bare not-found page').phrases).toEqual([{ found: 'not-found', alternatives: ['404', 'not found'] }])
  expect(findPhrases('the right-hand panel').phrases).toEqual([{ found: 'right-hand', alternatives: ['right', 'right hand'] }])
  expect(findPhrases('does it show up here').phrases[0]!.alternatives).toEqual(expect.arrayContaining(['show', 'display', 'appear']))
})

test('asking for the rest of a list asks how to page through it', () => {
  for (const question of [
    'How do I fetch the rest?',
    'only the first 50 come back, how do I get the rest',
    'where is the rest of the results',
  ]) {
    expect(findPhrases(question).phrases[0]?.alternatives, question).toEqual(expect.arrayContaining(['paginate', 'pagination']))
  }
})

test("a reader's dead link is the docs' broken link, one way: broken links are asked in the docs' own words", () => {
  expect(findPhrases('fix dead links on its own').phrases).toEqual([{ found: 'dead links', alternatives: ['broken links'] }])
  expect(findPhrases('find broken links').phrases).toEqual([])
  expect(findPhrases('a ready-made automation').phrases[0]!.alternatives).toContain('predefined')
  expect(findPhrases('is there an off-the-shelf template').phrases[0]!.alternatives).toContain('predefined')
  expect(findPhrases('we have two separate doc sites').phrases[0]!.alternatives).toContain('multiple')
})

test("how long a reader's thing sticks around, or is hung on to, is how long the docs say it stays or is retained", () => {
  expect(termsOf('how long do these stick around after the PR gets merged?')).toEqual(expect.arrayContaining(['stay', 'remain']))
  expect(termsOf('how long do you hang on to our activity history?')).toEqual(expect.arrayContaining(['retain']))
  expect(termsOf('how long are previews retained?')).not.toContain('stick')
})

test("a search that comes up empty finds the docs' results, and greeting readers by name is personalization (one way)", () => {
  expect(termsOf('which terms people type into our docs search come up empty')).toContain('results')
  expect(termsOf('greet signed-in users by first name')).toEqual(expect.arrayContaining(['personalize', 'personalization']))
  expect(termsOf('how do I set up personalization')).not.toContain('greet')
})

test('asked whether there is a newer one, the reader asks whether this one is deprecated (one way)', () => {
  expect(termsOf('is there a newer endpoint?')).toEqual(expect.arrayContaining(['deprecated', 'replacement']))
  expect(termsOf('which endpoints are deprecated?')).not.toContain('newer')
})

test('an abbreviation a reader types searches the word docs spell out (one way: code writes `params` too)', () => {
  expect(termsOf('which spec version does this need?')).toContain('specification')
  expect(termsOf('can I pass query params and env vars?')).toEqual(expect.arrayContaining(['parameters', 'variables']))
  expect(termsOf('which specification version')).not.toContain('spec')
})

test('who a change is credited to, or authored by, is who it is attributed to (one way)', () => {
  expect(termsOf('can they be credited to my github user?')).toContain('attributed')
  expect(termsOf('PRs authored by the bot')).toContain('attributed')
  expect(termsOf('who are pull requests attributed to?')).not.toContain('credited')
})

test("a reader's throttled is the docs' rate limit (one way), and what they have to fill in is required", () => {
  expect(findPhrases('before I get throttled').phrases).toEqual([])
  expect(termsOf('before I get throttled')).toEqual(expect.arrayContaining(['throttled', 'rate', 'limit']))
  expect(termsOf('what is the rate limit')).not.toContain('throttled')
  expect(findPhrases('which fields do I have to fill in').phrases[0]!.alternatives).toContain('required')
})

test('something done every Monday, each night or once a week runs on a schedule (one way)', () => {
  for (const question of ['run the agent every Monday morning', 'a nightly job', 'check links once a week', 'each night at 2am']) {
    expect(termsOf(question)).toContain('schedule')
  }
  expect(termsOf('edit the schedule of an automation')).not.toContain('nightly')
  expect(termsOf('every page has a title')).not.toContain('schedule')
})

test('killing a key or a session is revoking or disabling it (one way)', () => {
  expect(termsOf('kill the API keys they created')).toEqual(expect.arrayContaining(['revoke', 'disable']))
  expect(termsOf('revoke a key')).not.toContain('kill')
})

test('seeing a change before it goes live, or before publishing, is previewing it (one way)', () => {
  for (const question of [
    'can my manager see it before it goes live?',
    "check the page before it's published",
    'look at my draft before I publish',
  ]) {
    expect(termsOf(question)).toEqual(expect.arrayContaining(['preview', 'publish']))
  }
  expect(termsOf('how do I preview a page')).not.toContain('before')
})

test('two, three or several of a thing are what the docs call multiple (one way)', () => {
  expect(termsOf('we have two doc sites under one org')).toContain('multiple')
  expect(termsOf('show several possible responses for one endpoint')).toContain('multiple')
  expect(termsOf('multiple responses')).not.toContain('several')
})

test('a stylesheet is CSS, a server in front of the docs a proxy, an error page a 404, a label a badge (one way)', () => {
  expect(termsOf('do I have to reference my stylesheet in docs.json')).toContain('css')
  expect(termsOf('we put nginx in front of the docs at /docs')).toEqual(expect.arrayContaining(['proxy', 'nginx']))
  expect(termsOf('cloudflare sits in front of our vercel project')).toContain('proxy')
  expect(termsOf('change the heading on the error page')).toContain('404')
  expect(termsOf('can i stick a BETA label on one of these items?')).toEqual(expect.arrayContaining(['badge', 'tag']))
  expect(termsOf('add custom css')).not.toContain('stylesheet')
  expect(termsOf('configure a reverse proxy')).not.toContain('nginx')
  expect(termsOf('add a badge')).not.toContain('label')
})

test('whether the assistant knows about some content is whether it indexes it (one way)', () => {
  expect(termsOf('will the AI chat know about content on a preview branch?')).toEqual(expect.arrayContaining(['index', 'assistant']))
  expect(termsOf('is search aware of hidden pages?')).toContain('index')
  expect(termsOf('how does indexing work')).not.toContain('know')
})

test("a reader's leftovers are unused, carrying over is a rollover, burning through is consuming (one way)", () => {
  expect(termsOf("if we don't burn through our credits, do the leftovers carry over?")).toEqual(
    expect.arrayContaining(['consume', 'unused', 'rollover']),
  )
  expect(termsOf('do unused credits roll over')).toContain('rollover')
  expect(termsOf('how do rollovers work')).not.toContain('leftover')
})

test('what a page or a skill pulls in, it imports or loads; an inner one is nested (one way)', () => {
  expect(termsOf('a snippet that pulls in another snippet')).toEqual(expect.arrayContaining(['import', 'load']))
  expect(termsOf('the inner one renders as nothing')).toEqual(expect.arrayContaining(['nested', 'child']))
  expect(termsOf('import a snippet')).not.toContain('pull')
  expect(termsOf('nested snippets')).not.toContain('inner')
})

test('the next batch of results is paginated; doing nothing is idle; an isolated network is offline (one way or grouped)', () => {
  expect(termsOf('how do I get the next batch of results?')).toEqual(expect.arrayContaining(['paginate', 'cursor']))
  expect(termsOf('signed out after 30 minutes of doing nothing')).toEqual(expect.arrayContaining(['idle', 'inactivity']))
  expect(termsOf('a fully isolated network with no outside internet')).toContain('offline')
  expect(termsOf('what is the idle timeout')).not.toContain('doing')
})

test('an infosec team is security, being pinged is being notified, lining up is aligning, the docs chat is the assistant (one way or grouped)', () => {
  expect(termsOf("where do I put our infosec team's email for vulnerability reports?")).toContain('security')
  expect(termsOf('send them to our secops mailbox')).toContain('security')
  expect(termsOf('can we get pinged in slack when a PR waits for review?')).toEqual(expect.arrayContaining(['notify', 'notification']))
  expect(termsOf('make the price column line up on the right')).toEqual(expect.arrayContaining(['align', 'alignment']))
  expect(termsOf('open the docs chat with a question filled in')).toContain('assistant')
  expect(termsOf('set a security contact')).not.toContain('infosec')
  expect(termsOf('slack notifications')).not.toContain('ping')
  expect(termsOf('column alignment')).not.toContain('line')
})

test("the right-hand column is the page's side panel (one way)", () => {
  expect(termsOf('can i put a callout in the right-hand column where the table of contents usually sits')).toContain('panel')
  expect(termsOf('what shows in the right sidebar?')).toContain('panel')
  expect(termsOf('customize the side panel')).not.toContain('sidebar')
})

test('bigger is larger, a pack is a package, a search that comes back with nothing has no results (one way)', () => {
  expect(termsOf('is it cheaper to buy a bigger pack up front?')).toEqual(expect.arrayContaining(['larger', 'package']))
  expect(termsOf('searches that come back with nothing')).toContain('results')
  expect(termsOf('the largest package')).not.toContain('bigger')
})

test('a transcript is a conversation, leaving out is excluding, next to each other is side by side in columns, inside a sentence is inline, a MacBook is darwin (one way)', () => {
  expect(termsOf('pull every AI chat transcript with a script')).toEqual(expect.arrayContaining(['conversation', 'conversations']))
  // The object between the verb and its particle: "leave them out" is read as "leave out".
  expect(termsOf('how do I leave them out of the api reference completely?')).toEqual(expect.arrayContaining(['exclude', 'excluded']))
  expect(termsOf('show two snippets next to each other instead of stacked')).toEqual(expect.arrayContaining(['side', 'columns']))
  expect(termsOf('a small pill that says beta right inside a sentence')).toContain('inline')
  expect(termsOf('mint dev crashes on my m2 macbook: could not load the sharp module')).toEqual(expect.arrayContaining(['darwin', 'arm64']))
  expect(termsOf('export conversations')).not.toContain('transcript')
  expect(termsOf('exclude a page')).not.toContain('leave')
  expect(termsOf('inline code')).not.toContain('sentence')
})

test('still safe to use asks whether it is deprecated; a couple of is multiple; js is javascript; an acronym is an abbreviation', () => {
  expect(termsOf('is the old v1 endpoint still safe to use or should I switch?')).toEqual(
    expect.arrayContaining(['deprecated', 'replacement']),
  )
  expect(termsOf('can i have a couple of these on the same endpoint, one for the cli and one for the js sdk?')).toEqual(
    expect.arrayContaining(['multiple', 'javascript']),
  )
  expect(termsOf('hover over acronyms to see a definition')).toContain('abbreviation')
  // A couple alone is two people, not multiple of anything.
  expect(termsOf('a gift for a couple')).not.toContain('multiple')
  expect(termsOf('javascript sdk')).not.toContain('js')
})

test('a password put on the docs is their authentication; the on-this-page sidebar is the table of contents (one way)', () => {
  expect(termsOf('docs behind a reverse proxy, can we put a password on them?')).toContain('authentication')
  expect(termsOf('how do I password protect my docs')).toContain('authentication')
  expect(termsOf('can the on-this-page sidebar only list headings for one language?')).toEqual(expect.arrayContaining(['contents', 'toc']))
  // "On this page" alone says where the reader is, not what they ask about.
  expect(termsOf('how do I add a callout on this page')).not.toContain('contents')
  expect(termsOf('authentication setup')).not.toContain('password')
})
