import { describe, expect, test } from 'vitest'
import {
  codeIn,
  formulasIn,
  namesIn,
  nounPairs,
  objectOf,
  openingThing,
  readersThings,
  subjectOf,
  verbOf,
  verbsOf,
} from './question-words.ts'
import { contentTerms } from '../search/terms.ts'

/** The stems the functions answer in ("rotate" → "rotat"). */
const stems = (text: string) => contentTerms(text)

describe('what a question says beyond its words', () => {
  test('the verb it asks to do, after "how do I", "can I", "I want to" or at its start; none for a "what" question', () => {
    expect(verbOf('how do I draw a sequence diagram?')).toBe('draw')
    expect(verbOf('I want to rotate my key')).toBe(stems('rotate')[0])
    expect(verbOf('embed a youtube video')).toBe(stems('embed')[0])
    expect(verbOf('what is a context?')).toBeUndefined()
  })

  test('the object of that verb: the word after it and its determiner', () => {
    expect(objectOf('how to redirect a downspout away from the foundation')).toBe(stems('downspout')[0])
    expect(objectOf('can I rotate my key without downtime?')).toBe(stems('key')[0])
    // No determiner, or no verb asked for: no object read.
    expect(objectOf('redirect old urls')).toBeUndefined()
    expect(objectOf('what is a downspout?')).toBeUndefined()
  })

  test('the subject of what a question asks a thing does: the word after the auxiliary and its determiner', () => {
    expect(subjectOf('When do airbags deploy in a low-speed crash?')).toBe(stems('airbags')[0])
    expect(subjectOf('why does my sourdough come out dense?')).toBe(stems('sourdough')[0])
    // In the passive, the last word before "be": the others say which kind.
    expect(subjectOf('how often should running shoes be replaced')).toBe(stems('shoes')[0])
    expect(subjectOf('how long should the chicken thighs be baked?')).toBe(stems('thighs')[0])
    // Who asks is no subject; nor is a last word with no verb after it.
    expect(subjectOf('how do I deploy?')).toBeUndefined()
    expect(subjectOf('when does it expire?')).toBeUndefined()
    expect(subjectOf('why are previews')).toBeUndefined()
  })

  test('the verbs of each clause that asks how to do something; a clause of the story has none', () => {
    const question = "What's the difference between a tutorial and a how-to guide, and how do I decide which one a page should be?"
    expect(verbsOf(question)).toEqual(stems('decide'))
    expect(verbsOf('embed a youtube video, and how do I make it autoplay?')).toEqual(stems('embed make'))
    expect(verbsOf('We moved our docs and the links broke. How do I add redirects?')).toEqual(stems('add'))
    expect(verbsOf('Is that possible, and how long do you keep the history?')).toEqual([])
  })

  test('what it writes as code', () => {
    expect(codeIn('where does `apiKey` go in docs.json, with --port or api_key?')).toEqual(['apiKey', 'docs.json', '--port', 'api_key'])
    expect(codeIn('how do I add a page?')).toEqual([])
  })

  test('the names it capitalises, not its first word', () => {
    expect([...namesIn('How do I call it from Rust or PHP?')]).toEqual(stems('rust php'))
    // Days and months are capitalised, not names of things.
    expect([...namesIn('If we report it on a Saturday in March, does Acme answer?')]).toEqual(stems('acme'))
  })

  test('a question that opens on a thing and how it behaves speaks of that thing; a question word opens no such thing', () => {
    expect(openingThing('toilet keeps running after I flush, how do I fix it')).toBe('toilet')
    expect(openingThing('Our kitchen faucet keeps dripping even when it is off')).toBe(stems('faucet')[0])
    expect(openingThing('the webhook seems to fire twice')).toBe(stems('webhook')[0])
    expect(openingThing('My boss wants a PDF export of the docs')).toBeUndefined()
    expect(openingThing('how long is the audit log kept?')).toBeUndefined()
    expect(openingThing('what hashing is used for bucketing')).toBeUndefined()
  })

  test('what the reader owns or wants a thing for: a possessive phrase up to a preposition or adverb, the last word after "for"', () => {
    expect(readersThings('how do I fix my broken washing machine at home?')).toEqual(stems('broken washing machine'))
    expect(readersThings("how do I block a neighbor's view with trees?")).toEqual(stems('neighbor view'))
    expect(readersThings('a proxy for the nodejs sdk')).toEqual(['sdk'])
    expect(readersThings('how do I rotate my keys safely?')).toEqual(stems('keys'))
    // What happened to it, in -ed after it, is not part of its name; before it, it says which ("my signed certificate").
    expect(readersThings('Analytics in our dashboard flatlined right after we put this nginx setup in place')).toEqual(stems('dashboard'))
    expect(readersThings('the widget on our site crashed')).toEqual(stems('site'))
    expect(readersThings('can I renew the signed certificate on my shared drive')).toEqual(stems('shared drive'))
    expect(readersThings('how do I feed my cat')).toEqual(stems('cat'))
    // A verb of how it seems, or of what it has, ends the thing: the reader's site, not "site seems drop".
    expect(readersThings('the llms.txt on our site seems to drop pages')).toEqual(stems('site'))
    expect(readersThings('the search bar on our site looks broken')).toEqual(stems('site'))
    // A preposition or an adverb ends it too: the deployment, not "halfway".
    expect(readersThings('if we delete our docs deployment halfway through a billing period')).toEqual(stems('docs deployment'))
    expect(readersThings('can our docs site after the migration keep its urls?')).toEqual(stems('docs site'))
    expect(readersThings('can I pick them myself?')).toEqual([])
    // A value the reader writes (an ID, a placeholder) is not a thing of theirs.
    expect(readersThings('I added our G-XXXX measurement ID to the config')).toEqual(stems('measurement id'))
    expect(readersThings('how do I connect my UA-12345 property?')).toEqual(stems('property'))
    // Who asks is not what the question is about.
    expect(readersThings('my boss wants a pdf export, and our team needs it weekly')).toEqual([])
    // "That's" and "it's" say "that is", not what "that" owns.
    expect(readersThings("can we keep editing while that's happening, and what's next?")).toEqual([])
    expect(readersThings("where's the neighbor's fence?")).toEqual(stems('neighbor fence'))
    // A sentence's end ends it: the next sentence's first words are not part of the reader's images.
    expect(readersThings("classes don't do anything on my images. whats the workaround for custom sizes?")).toEqual(stems('images sizes'))
    expect(readersThings('I edited my docs.json and the nav broke')).toEqual(stems('docs.json'))
  })

  test('the two-word things a question names after a determiner, where the phrase ends', () => {
    expect(nounPairs('How do I write a cover letter?')).toEqual([stems('cover letter')])
    expect(nounPairs('link my bank account to my budget app')).toEqual([stems('bank account'), stems('budget app')])
    expect(nounPairs('which analytics degree should I study')).toEqual([stems('analytics degree')])
    // An adverb after the pair ends it: "a washing machine usually fails" names a washing machine.
    expect(nounPairs('which component of a washing machine usually fails first')).toEqual([stems('washing machine')])
    // Everyday words between the determiner and the pair say which one.
    expect(nounPairs('tips for running a first half marathon')).toEqual([stems('half marathon')])
    // So do words that describe ("a single row"), and a word before a determiner is a verb ("a visitor closes the").
    expect(nounPairs('Can I fit five cards in a single row with this?')).toEqual([])
    // A comparative describes too: "a newer version" is a version.
    expect(nounPairs('is this one still ok to use or is there a newer version?')).toEqual([])
    expect(nounPairs('is there a faster way?')).toEqual([])
    expect(nounPairs('If a visitor closes the banner, will they see it again?')).toEqual([])
    // Not a phrase that goes on, a pronoun, a preposition, or a noun and what was done to it.
    expect(nounPairs('track which buttons readers click')).toEqual([])
    expect(nounPairs('does this support strikethrough?')).toEqual([])
    expect(nounPairs('add a border around an image')).toEqual([])
    expect(nounPairs('link to a pdf stored in my repo')).toEqual([])
    expect(nounPairs('how do I stop my rollout safely?')).toEqual([])
  })

  test('formulas a reader writes outside code: a variable, a number, and an equals sign, a power or a coefficient', () => {
    expect(formulasIn('help me solve 3x + 7 = 22 and show the steps')).toEqual(['3x+7=22'])
    expect(formulasIn('What is the domain of f(x) = 1/(x - 3)?')).toEqual(['f(x)=1/(x-3)'])
    expect(formulasIn("what's the derivative of x^2")).toEqual(['x^2'])
    expect(formulasIn('simplify 2x - 5')).toEqual(['2x-5'])
    for (const question of [
      'is the image 1200 x 630?',
      'set `n=5` in the config',
      'n + 1 queries are slow',
      'a low-speed crash',
      'set limit=50 per page',
    ]) {
      expect(formulasIn(question), question).toEqual([])
    }
  })
})
