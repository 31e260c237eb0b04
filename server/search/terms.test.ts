import { describe, expect, it } from 'vitest'
import {
  contentTerms,
  contentWords,
  MAX_QUERY_TERMS,
  processTerm,
  queryTerms,
  singularAcronyms,
  stem,
  tokenize,
  wordFamily,
} from './terms.ts'
import { parseQuery } from './query.ts'

describe('terms', () => {
  it('tokenizes words, identifiers and CJK text', () => {
    expect(tokenize('Roll out `new-checkout` to 10% of users!')).toEqual(['roll', 'out', 'new', 'checkout', 'to', '10', 'of', 'users'])
    expect(tokenize('Set LUMEN_SDK_KEY')).toEqual(['set', 'lumen_sdk_key', 'lumen', 'sdk', 'key'])
    expect(tokenize('<Accordion defaultOpen> getHTTPClient')).toEqual([
      'accordion',
      'defaultopen',
      'gethttpclient',
      'default',
      'open',
      'get',
      'http',
      'client',
    ])
    expect(tokenize('安装 CLI 工具')).toEqual(['安', '装', 'cli', '工', '具'])
    expect(tokenize('Réglages avancés')).toEqual(['réglages', 'avancés'])
  })

  it('drops contractions typed without their apostrophe, as it drops them with it', () => {
    expect(contentTerms('whats the workaround, I dont know why it doesnt work and thats odd')).toEqual(
      contentTerms("what's the workaround, I don't know why it doesn't work and that's odd"),
    )
  })

  it("reads an acronym's plural as its singular, and an acronym ending in S as itself", () => {
    expect(contentTerms('user IDs, the APIs and PRs')).toEqual(contentTerms('user ID, the API and PR'))
    expect(contentTerms('a package from UPS')).toContain('ups')
    expect(parseQuery('rotate the SDKs and IDs').words.map((word) => word.terms[0]!.word)).toEqual(['rotate', 'sdk', 'id'])
  })

  it('finds identifier parts and acronym plurals in time linear in the text, long runs of letters too', () => {
    expect(tokenize('parseJSON2Value ÉtatCivil')).toEqual(['parsejson2value', 'étatcivil', 'parse', 'json', '2', 'value', 'état', 'civil'])
    // `\b` is ASCII's: `ÀPIs` has one between `À` and `P`, `xAPIs` none before its capitals.
    expect(singularAcronyms('user IDs, ÀPIs, xAPIs, IDsx')).toBe('user ID, ÀPI, xAPIs, IDsx')
    // The patterns these replace read the rest of a run from each of its letters: 16,000 `A`s took 0.58 s.
    const capitals = 'A'.repeat(100_000)
    const lower = 'a'.repeat(100_000)
    expect(tokenize(capitals)).toEqual([lower])
    expect(tokenize(lower)).toEqual([lower])
    expect(tokenize(`a${capitals}`)).toEqual([`a${lower}`, 'a', lower])
    expect(singularAcronyms(`s${'ÀA'.repeat(50_000)}`)).toBe(`s${'ÀA'.repeat(50_000)}`)
    expect(singularAcronyms(`${'ÀA'.repeat(50_000)}s`)).toBe('ÀA'.repeat(50_000))
  })

  it('drops stop words and stems endings so forms of a word meet', () => {
    expect(processTerm('how')).toBeNull()
    expect(processTerm('the')).toBeNull()
    expect(stem('rollouts')).toBe(stem('rollout'))
    expect(stem('evaluating')).toBe(stem('evaluate'))
    expect(stem('evaluated')).toBe(stem('evaluation'.slice(0, -3) + 'e'))
    expect(stem('policies')).toBe(stem('policy'))
    expect(stem('flags')).toBe('flag')
    expect(stem('status')).toBe('status')
    expect(stem('v2')).toBe('v2')
    // The particle of a hyphenated plural is no word of its own: "sign-ins" are sign-ins, not "ins".
    expect(contentWords('force all dashboard sign-ins and add-ons')).toEqual(['force', 'dashboard', 'sign', 'add'])
    expect(contentWords('track a package from UPS')).toContain('ups')
    // "Against" says how, not what: "building against this endpoint".
    expect(contentWords('should I still be building against this endpoint')).toEqual(['still', 'building', 'endpoint'])
  })

  it('cuts a query to its first distinct words, without stop words', () => {
    expect(queryTerms('How do I roll out the flag, roll out again?')).toBe('roll flag')
    expect(queryTerms("What's exit code 6?")).toBe('exit code 6')
    // What a negation leaves when split at its apostrophe is no word of the question.
    expect(queryTerms("the icons won't load and the page doesn't render, isn't that odd?")).toBe('icons load page render odd')
    const pasted = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ')
    expect(queryTerms(pasted).split(' ')).toHaveLength(MAX_QUERY_TERMS)
    expect(queryTerms('the of and')).toBe('')
  })

  it('knows the other words of a word family, which the stemmer leaves apart', () => {
    expect(wordFamily(stem('approve'))).toEqual(expect.arrayContaining([stem('approval'), stem('approver')]))
    expect(wordFamily(stem('configuration'))).toContain(stem('configure'))
    expect(wordFamily(stem('flatter'))).toContain('flat')
    expect(contentTerms("What's the limit of 6 flags?")).toEqual(['limit', '6', 'flag'])
  })
})
