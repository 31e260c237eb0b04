import { beforeAll, describe, expect, test } from 'vitest'
import type { ChatTurn } from '../../shared/assistant.ts'
import { buildCorpus } from './corpus.ts'
import { readDocsSite } from './docs-site.ts'
import { namesOnlyProperties, pointsAt, pointsOutside, searchQuestion, standaloneQuestion, subjectsOf } from './question.ts'
import { readDirectory } from './sources/directory.ts'
import type { Corpus, SearchHit } from './types.ts'

const user = (text: string): ChatTurn => ({ role: 'user', text })
const assistant = (text: string): ChatTurn => ({ role: 'assistant', text })

test('a first question is searched as it is', () => {
  expect(standaloneQuestion([user('How do percentage rollouts work?')])).toBe('How do percentage rollouts work?')
})

test('a follow-up that refers back gets the earlier question in front of it', () => {
  const turns = [user('How do I install the Python SDK?'), assistant('Run pip install lumenflags. [1]'), user('and how do I configure it?')]
  expect(standaloneQuestion(turns)).toBe('How do I install the Python SDK? and how do I configure it?')
  expect(standaloneQuestion([user('What are segments?'), assistant('...'), user('Go?')])).toBe('What are segments? Go?')
})

test('a follow-up that stands on its own is not mixed with the old topic', () => {
  const turns = [user('What are segments?'), assistant('...'), user('How do webhooks sign their payload requests?')]
  expect(standaloneQuestion(turns)).toBe('How do webhooks sign their payload requests?')
})

test('the query stays within 500 characters and keeps the whole last question', () => {
  const long = 'x'.repeat(450)
  const query = standaloneQuestion([user('y '.repeat(400)), assistant('...'), user(`${long} it`)])
  expect(query.length).toBeLessThanOrEqual(500)
  expect(query.endsWith(`${long} it`)).toBe(true)
  expect(standaloneQuestion([user('a'), user('z'.repeat(600))]).length).toBe(500)
})

describe('questions that lean on what they do not name', () => {
  test('pointing words, "one" standing for a noun, "my own" with nothing after it; not "is it possible"', () => {
    for (const q of [
      'what properties does this take?',
      'can one be open by default?',
      'how do I use my own?',
      'can I turn it off?',
      'can each one link somewhere?',
      'which one should I pick?',
      'how do I mark one as required?',
      'which of the two keeps the page out of the sidebar?',
      'what is the difference between the two?',
      'should I use the latter?',
      "do the ones we don't use carry over to next month?",
      'what about the one that opens first?',
    ]) {
      expect(pointsAt(q), q).toBe(true)
    }
    for (const q of [
      'is it possible to use a custom domain?',
      'how do I add one page to two groups?',
      'use my own domain',
      'one more question about billing',
      'how do I split a page into two columns?',
      'compare the free and pro plans',
      'the one thing every page needs',
    ]) {
      expect(pointsAt(q), q).toBe(false)
    }
  })

  test('"the same" and "the previous" point only when no noun follows', () => {
    for (const q of ['is it the same?', 'can I keep the previous one?', 'are they the same ones?']) expect(pointsAt(q), q).toBe(true)
    for (const q of ['keep everyone from the same company on the same variation', 'how do I restore the previous version'])
      expect(pointsAt(q), q).toBe(false)
  })

  test("a pointing word after three words of the question's own refers back to them, not to the page", () => {
    for (const q of ['does it work with the app router?', 'what properties does this take?', 'can I turn their emails off?']) {
      expect(pointsOutside(q), q).toBe(true)
    }
    for (const q of [
      'We connected Claude to our Mintlify project so it could edit docs. How do we revoke its access now?',
      'list of predefined automations and their triggers',
      'when I kick off an agent job from CI, can I have it open draft PRs?',
      'is it possible to use a custom domain?',
    ]) {
      expect(pointsOutside(q), q).toBe(false)
    }
  })

  test('"here" points at the page wherever it stands; not when it presents something', () => {
    for (const q of ['which chat tools can I hook up here?', 'Which themes actually support the frame layout described here?']) {
      expect(pointsOutside(q), q).toBe(true)
    }
    for (const q of [
      "webhook signature verification fails for us, here's the log",
      'webhook signature verification fails and here is the log',
    ]) {
      expect(pointsOutside(q), q).toBe(false)
    }
  })

  test('"ones", "exactly" and "follow" name no subject: the page is what they ask about', () => {
    expect(
      subjectsOf('Paths that need to get through the proxy untouched, which ones exactly?').map((word) => word.terms[0]!.word),
    ).toEqual(['paths', 'proxy', 'untouched'])
    expect(subjectsOf('what version of the spec does my file need to follow?').map((word) => word.terms[0]!.word)).toEqual([
      'version',
      'spec',
      'file',
    ])
  })

  test('a long question is read in time linear in it', () => {
    expect(pointsAt(`\t${'T!MY\tOWN\t'.repeat(100_000)}N`)).toBe(false)
    expect(pointsAt(`use my own${' '.repeat(100_000)}?`)).toBe(true)
    expect(pointsAt(`${'one '.repeat(100_000)}more`)).toBe(false)
  })
})

describe('searchQuestion over demo/docs', () => {
  let corpus: Corpus
  beforeAll(async () => {
    corpus = buildCorpus(readDocsSite(await readDirectory('demo/docs')))
  })
  const ask = (turns: ChatTurn[], currentPath?: string) => searchQuestion(corpus, { turns, pageSize: 10, currentPath })
  const pages = (hits: SearchHit[]) => [...new Set(hits.map((hit) => hit.section.path))]

  test('a question about the page the reader is on gets the page first, then pages elsewhere on its topic', async () => {
    const found = await ask([user('how do I verify them?')], '/guides/webhooks')
    expect(found.leansOn).toBe('page')
    expect(found.page?.path).toBe('guides/webhooks')
    expect(pages(found.hits)[0]).toBe('guides/webhooks')
    expect(found.hits[0]!.section.headings).toContain('Verify signatures')
    expect(pages(found.hits).length).toBeGreaterThan(1)
    // Naming nothing at all, the page's opening answers.
    const opening = await ask([user('what is this?')], '/concepts/segments')
    expect(pages(opening.hits)[0]).toBe('concepts/segments')
  })

  test('a short question whose words the page holds is about the page; one about something else is not', async () => {
    expect((await ask([user('what is the retention?')], '/account/audit-log')).leansOn).toBe('page')
    const other = await ask([user('How do I rotate an SDK key without downtime?')], '/guides/webhooks')
    expect(other.leansOn).toBeUndefined()
    expect(pages(other.hits)[0]).toMatch(/environments$/)
  })

  test('a question with a subject of its own, asked on another page, is searched as asked though it says "it"', async () => {
    const question = 'We rotated our server-side SDK key last night and now it fails with 401. How do I rotate it without downtime?'
    const found = await ask([user(question)], '/guides/webhooks')
    expect(found.leansOn).toBeUndefined()
    expect(pages(found.hits)[0]).toMatch(/environments$/)
    // Pointing before it names anything, the question is about the page.
    expect((await ask([user('can I retry them later?')], '/guides/webhooks')).leansOn).toBe('page')
  })

  test("a question that names only properties ('is there a size limit?') is about the page, whatever words the page uses", async () => {
    for (const [question, path] of [
      ['is there a size limit?', '/concepts/contexts'],
      ['which formats are supported?', '/guides/webhooks'],
      ['what is the default?', '/account/audit-log'],
    ] as const) {
      expect(namesOnlyProperties(subjectsOf(question)), question).toBe(true)
      const found = await ask([user(question)], path)
      expect(found.leansOn, question).toBe('page')
      expect(pages(found.hits)[0], question).toBe(path.slice(1))
    }
    // A subject of its own is searched as asked.
    for (const question of ['what is the rate limit of the REST API?', 'how do I accept a suggestion?']) {
      expect(namesOnlyProperties(subjectsOf(question)), question).toBe(false)
    }
    expect((await ask([user('what is the rate limit of the REST API?')], '/concepts/contexts')).leansOn).toBeUndefined()
  })

  test('an ID is a property: "do I need both of these ids?" asks about what the page takes', () => {
    for (const question of ['do I need both of these ids or just one?', 'which ID goes where?']) {
      expect(namesOnlyProperties(subjectsOf(question)), question).toBe(true)
    }
    expect(namesOnlyProperties(subjectsOf('where do I find my project ID?'))).toBe(false)
  })

  test('a short question asking a property of something the page holds is about the page; of something else, not', async () => {
    for (const [question, path] of [
      ['which field does the key go under?', '/concepts/environments'],
      ['what format is the signature?', '/guides/webhooks'],
    ] as const) {
      const found = await ask([user(question)], path)
      expect(found.leansOn, question).toBe('page')
      expect(pages(found.hits)[0], question).toBe(path.slice(1))
    }
    const other = await ask([user('what format does a webhook payload use?')], '/concepts/environments')
    expect(other.leansOn).toBeUndefined()
    expect(pages(other.hits)[0]).toBe('guides/webhooks')
  })

  test('a follow-up is searched with the earlier question; a new subject in the same frame wins over the old one', async () => {
    const turns = [user('how do I install the javascript sdk?'), assistant('Run npm install @lumenflags/node. [1]')]
    const python = await ask([...turns, user('and in python?')])
    expect(python.leansOn).toBe('thread')
    expect(python.query).toBe('how do I install the javascript sdk? and in python?')
    expect(pages(python.hits)[0]).toBe('sdks/python')
    const same = await ask([user('What is a segment?'), assistant('...'), user('how do I delete one?')])
    expect(pages(same.hits).slice(0, 3)).toContain('concepts/segments')
  })

  test('"what does this do?" about a selection searches the selection', async () => {
    const found = await searchQuestion(corpus, {
      turns: [user('what does this do?')],
      pageSize: 5,
      context: [{ type: 'code', value: 'client.close()' }],
    })
    expect(found.leansOn).toBe('selection')
    expect(found.hits.length).toBeGreaterThan(0)
  })
})
