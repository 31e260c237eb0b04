import { generateText, streamText } from 'ai'
import { describe, expect, test } from 'vitest'
import { systemPrompt } from '../assistant/system-prompt.ts'
import { offlineAnswerModel } from './offline-answer.ts'
import { extractiveAnswer } from './extractive-answer.ts'
import { verbOf } from './question-words.ts'
import { contentTerms } from '../search/terms.ts'
import { isDecline } from '../analytics/decline.ts'
import { DECLINE, onPage, parseSourceBlocks, type SourceBlock } from '../assistant/prompt-format.ts'

const sources: SourceBlock[] = [
  {
    id: 1,
    title: 'Contexts › Anatomy of a context',
    url: 'https://docs.example.com/concepts/contexts#anatomy',
    content:
      'A context is the subject of a flag evaluation.\n\nA context can have at most **100 attributes**, and each string value can be at most 1 KB.',
  },
  {
    id: 2,
    title: 'Percentage rollouts',
    url: 'https://docs.example.com/guides/percentage-rollouts',
    content:
      'A **percentage rollout** serves variations to a share of your contexts.\n\nTo start a rollout, run:\n\n```bash\nlumen flags rollout new-checkout --percent 10\n```\n\nRamping up is sticky.',
  },
]

const ask = (question: string, blocks = sources, extra: Partial<Parameters<typeof systemPrompt>[0]> = {}) =>
  streamText({
    model: offlineAnswerModel(),
    instructions: systemPrompt({ docsName: 'Lumen Flags', sources: blocks, ...extra }),
    messages: [{ role: 'user', content: question }],
  })

describe('offline-answer model', () => {
  test('is an AI SDK v4-spec language model', () => {
    const model = offlineAnswerModel()
    expect(model.specificationVersion).toBe('v4')
    expect(model.modelId).toBe('offline-answer')
  })

  test('answers with the most relevant sentence of the sources, cited, streamed in several deltas', async () => {
    const result = ask('How many attributes can a context have?')
    const deltas: string[] = []
    for await (const delta of result.textStream) deltas.push(delta)
    const text = deltas.join('')
    expect(deltas.length).toBeGreaterThan(3)
    expect(text).toContain('A context can have at most **100 attributes**, and each string value can be at most 1 KB. [1]')
    expect(text).not.toContain('rollout')
    // The widget lists the sources: the answer has no list of its own, and says the answer first.
    expect(text).not.toMatch(/Sources:|From the docs/)
    expect(text.startsWith('A context can have at most')).toBe(true)
    expect(await result.finishReason).toBe('stop')
  })

  test('quotes the code a "how do I" sentence introduces', async () => {
    const { text } = await generateText({
      model: offlineAnswerModel(),
      instructions: systemPrompt({ docsName: 'Lumen Flags', sources }),
      prompt: 'How do I start a percentage rollout?',
    })
    expect(text).toContain('To start a rollout, run: [2]')
    expect(text).toContain('```bash\nlumen flags rollout new-checkout --percent 10\n```')
  })

  test('says the docs do not cover a question the sources miss, and when there are no sources', async () => {
    expect(await ask('How do I bake a chocolate cake?').text).toMatch(new RegExp(`^${DECLINE} I found nothing about "bake chocolate cake"`))
    // In the reader's own words, not the synonyms the search tried ("configure" for "set up").
    expect(await ask('How do I set up a new email account on my phone?').text).toContain(
      'I found nothing about "set up new email account phone"',
    )
    const none = await ask('How many attributes can a context have?', []).text
    expect(isDecline(none)).toBe(true)
  })

  test('a word the docs use on other pages does not sink an answer; a word the docs never use does', async () => {
    // The retrieval names the words the docs never use in the prompt; without that line every word is one they use.
    const question = 'How many attributes can a spaceship have?'
    expect(await ask(question).text).toContain('at most **100 attributes**')
    const unknown = await ask(question, sources, { unknownWords: ['spaceship'] })
    expect(await unknown.text).toMatch(new RegExp(`^${DECLINE}`))
    expect(systemPrompt({ docsName: 'Lumen Flags', sources, unknownWords: ['spaceship'] })).toContain(
      'Words of the question that these docs never use: spaceship',
    )
  })

  test('a compound the sources write apart ("autocapture", "automatically capture") is covered by its base', () => {
    const heap: SourceBlock[] = [
      {
        id: 1,
        title: 'Heap',
        url: 'https://docs.example.com/integrations/heap',
        content: 'Add your Heap app ID to automatically capture clicks and page views.',
      },
    ]
    expect(extractiveAnswer('autocapture clicks with heap', heap)).toBe(
      'Add your Heap app ID to automatically capture clicks and page views. [1]',
    )
    // Only written apart, a word with the prefix and then the base: "preview" is not any "view".
    const preview: SourceBlock[] = [
      { id: 1, title: 'Pages', url: 'https://docs.example.com/pages', content: 'View the page count of every group in the sidebar.' },
    ]
    expect(extractiveAnswer('preview the sidebar groups of a pull request', preview).startsWith(DECLINE)).toBe(true)
  })

  test('a sentence that refers back comes with the sentences of its paragraph that say what it refers to', () => {
    const llms: SourceBlock[] = [
      {
        id: 1,
        title: 'llms.txt',
        url: 'https://docs.example.com/ai/llmstxt',
        content:
          'This page explains the llms.txt file.\n\nAutomatically generated `llms.txt` files cannot exceed 100,000 characters. As a file approaches this limit, Mintlify shortens page descriptions first. This limit does not apply to `llms-full.txt`.',
      },
    ]
    // Before, the answer opened on "This limit does not apply to `llms-full.txt`.": which limit, it did not say.
    expect(extractiveAnswer('does the limit apply to llms-full.txt?', llms)).toBe(
      'Automatically generated `llms.txt` files cannot exceed 100,000 characters. As a file approaches this limit, Mintlify shortens page descriptions first. This limit does not apply to `llms-full.txt`. [1]',
    )
    // A paragraph's first sentence refers to no sentence before it: the paragraph before says something else.
    const proxy: SourceBlock[] = [
      {
        id: 1,
        title: 'Proxy',
        url: 'https://docs.example.com/proxy',
        content:
          'Plans renew monthly on the day you subscribed. Invoices go to the billing email.\n\nThis setting routes every request through the proxy.',
      },
    ]
    expect(extractiveAnswer('what does the proxy setting route?', proxy)).toBe('This setting routes every request through the proxy. [1]')
  })

  test("quotes the second source's best sentence too when it holds two of the question's words", () => {
    const tabs: SourceBlock[] = [
      {
        id: 1,
        title: 'Navigation',
        url: 'https://docs.example.com/navigation',
        content: 'Tab groups on the same page switch together when readers pick a tab.\n\nGroups cluster related pages.',
      },
      {
        id: 2,
        title: 'Tabs',
        url: 'https://docs.example.com/components/tabs',
        content:
          'Set the sync field of each tab to false, and every other component on it that shares a title keeps its own selection instead of switching with the rest of the layout around it.',
      },
      { id: 3, title: 'Hidden pages', url: 'https://docs.example.com/hidden', content: 'Hide a page from the sidebar.' },
    ]
    expect(extractiveAnswer('stop tab groups on the same page from switching together', tabs)).toBe(
      'Tab groups on the same page switch together when readers pick a tab. [1]\n\nSet the sync field of each tab to false, and every other component on it that shares a title keeps its own selection instead of switching with the rest of the layout around it. [2]',
    )
  })

  test("quotes the third source's best sentence too when it holds three of the question's words (two are not enough)", () => {
    const fonts: SourceBlock[] = [
      {
        id: 1,
        title: 'Fonts',
        url: 'https://docs.example.com/fonts',
        content:
          'Set a custom font for headings and body text, in light and dark mode alike, with the fonts field of the settings file, which takes a family, a weight and a source URL for each.',
      },
      { id: 2, title: 'Typography', url: 'https://docs.example.com/typography', content: 'Headings use the font of the theme.' },
      { id: 3, title: 'Colors', url: 'https://docs.example.com/colors', content: 'Dark mode keeps custom colors.' },
    ]
    expect(extractiveAnswer('set a custom font for headings in dark mode', fonts)).toBe(
      `${fonts[0]!.content} [1]\n\nHeadings use the font of the theme. [2]\n\nDark mode keeps custom colors. [3]`,
    )
    const two = fonts.map((source) => (source.id === 3 ? { ...source, content: 'Dark mode keeps its colors.' } : source))
    expect(extractiveAnswer('set a custom font for headings in dark mode', two)).not.toContain('[3]')
  })

  test('how often ("usually", "typically", "always") says nothing of what is asked: no passage speaks of a question by it', () => {
    const deployments: SourceBlock[] = [
      {
        id: 1,
        title: 'Deployments',
        url: 'https://docs.example.com/deployments',
        content:
          'When it finishes deploying, refresh the site.\n\nA failed build usually means the deployment started before the spec finished publishing.',
      },
      {
        id: 2,
        title: 'Plans',
        url: 'https://docs.example.com/plans',
        content: 'The basic plan includes one seat.\n\nTraining sessions are available on request.',
      },
    ]
    // "usually", "deploy" and "finish" in one passage made it speak of the soldiers' question, whose subject the docs never name.
    const soldiers = { question: 'When do soldiers usually deploy after finishing basic training?', unknownWords: ['soldiers'] }
    expect(extractiveAnswer(soldiers, deployments).startsWith(DECLINE)).toBe(true)
    expect(extractiveAnswer('when does a deployment usually finish?', deployments)).toContain('finishes deploying')
  })

  test('a long question that tells its story is answered from the passages that hold three of its words', () => {
    const callouts: SourceBlock[] = [
      {
        id: 1,
        title: 'Callouts',
        url: 'https://docs.example.com/components/callouts',
        content:
          'The typed callouts (`Note`, `Warning`, `Info`) use preset icons and colors.\n\nCreate a custom callout with its own icon and color: `<Callout icon="key" color="#FFC107">`.',
      },
      {
        id: 2,
        title: 'API',
        url: 'https://docs.example.com/api',
        content: 'Each API key belongs to one project.\n\nSend the key in the Authorization header.',
      },
      { id: 3, title: 'Cards', url: 'https://docs.example.com/cards', content: 'Cards show a title, an icon and a link.' },
      // A real search's sources hold most of a story's words somewhere: a story they mostly lack is declined (below).
      { id: 4, title: 'Frames', url: 'https://docs.example.com/frames', content: 'A frame draws a border around an image.' },
    ]
    const answer = extractiveAnswer(
      "The Warning box won't let me change its icon. I want a key icon with a yellow border for API key notes.",
      callouts,
    )
    expect(answer.startsWith('The typed callouts (`Note`, `Warning`, `Info`) use preset icons and colors. [1]')).toBe(true)
  })

  test("a story's words no source holds do not sink a question whose passage holds three of its words", () => {
    const glossary: SourceBlock[] = [
      {
        id: 1,
        title: 'Glossary',
        url: 'https://docs.example.com/reference/glossary',
        content:
          'A deployment is one documentation site, built from one repository, with its own domain.\n\nA project is the container in the dashboard that holds your deployments and their settings.',
      },
      {
        id: 2,
        title: 'Deployments',
        url: 'https://docs.example.com/deploy/deployments',
        content: 'Your site deploys when you push to the connected repository.\n\nTrigger a deployment by hand from the dashboard.',
      },
    ]
    const answer = extractiveAnswer(
      "what's the difference between a deployment and a project? the dashboard says deployment everywhere",
      glossary,
    )
    expect(answer).toMatch(/^A project is the container in the dashboard that holds your deployments and their settings\. \[1\]/)
  })

  test('a question of two words of its own is answered where one page holds both, not by each on a page of its own', () => {
    const keyboard: SourceBlock = {
      id: 1,
      title: 'Accessibility',
      url: 'https://docs.example.com/guides/accessibility',
      content: 'Navigate your documentation using only your keyboard.\n\nPress Tab to move forward through links.',
    }
    const cleanUp: SourceBlock = {
      id: 2,
      title: 'MCP connections',
      url: 'https://docs.example.com/ai/mcp',
      content: 'Old connections pile up over time. Clean them up periodically.',
    }
    expect(extractiveAnswer('What is the best way to clean a keyboard?', [keyboard, cleanUp])).toMatch(new RegExp(`^${DECLINE}`))
    const onePage = { ...keyboard, content: `${keyboard.content}\n\nClean the keyboard shortcuts list from the settings.` }
    expect(extractiveAnswer('What is the best way to clean a keyboard?', [onePage, cleanUp])).not.toMatch(new RegExp(`^${DECLINE}`))
    // Who does it is not one of the words: docs seldom name their readers.
    const mermaid: SourceBlock = {
      id: 1,
      title: 'Mermaid',
      url: 'https://docs.example.com/components/mermaid',
      content: 'All Mermaid diagrams include zoom and pan controls.',
    }
    expect(extractiveAnswer('can readers zoom in?', [mermaid, cleanUp])).toBe('All Mermaid diagrams include zoom and pan controls. [1]')
  })

  test('five words scattered over the docs, two to a passage and three to a page, are not spoken of together', () => {
    const scattered: SourceBlock[] = [
      {
        id: 1,
        title: 'List tables',
        url: 'https://docs.example.com/create/list-table',
        content: 'A list table keeps a wide table readable.\n\nSet the size of each column in pixels.',
      },
      {
        id: 2,
        title: 'Community',
        url: 'https://docs.example.com/community',
        content: 'The members table lists people who joined the community.',
      },
      { id: 3, title: 'Navigation', url: 'https://docs.example.com/navigation', content: 'Check that the navigation fits on one line.' },
    ]
    expect(extractiveAnswer('what table size fits six people comfortably', scattered)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('what size should a list table column be in pixels', scattered)).toMatch(
      /^Set the size of each column in pixels\. \[1\]/,
    )
    // One page that holds four of them speaks of them, though each passage holds two.
    const badge: SourceBlock = {
      id: 1,
      title: 'Badge',
      url: 'https://docs.example.com/components/badge',
      content: 'Badges show an inline label.\n\nSet `outline` for an outlined badge.\n\nA pill shape suits text like a version.',
    }
    // (Which of its passages opens the answer is for the scores: a reader's "label" also searches "badge".)
    const answer = extractiveAnswer("inline outlined pill label next to a heading's text", [badge])
    expect(answer).not.toMatch(new RegExp(`^${DECLINE}`))
    expect(answer).toContain('Badges show an inline label.')
  })

  test('a question that asks where to start is answered by the entry page, however its other words scatter', () => {
    const gettingStarted: SourceBlock[] = [
      { id: 1, title: 'Quickstart', url: 'https://docs.example.com/quickstart', content: 'Install the local tooling.' },
      { id: 2, title: 'Web editor', url: 'https://docs.example.com/editor', content: 'The editor runs in your browser.' },
    ]
    expect(extractiveAnswer('where do I start? deploy guide, local tooling, or the browser editor?', gettingStarted)).toMatch(
      /^Install the local tooling\. \[1\]/,
    )
    // The same words, not asking where to start, are scattered: no passage holds more than two of them.
    expect(extractiveAnswer('the deploy guide, local tooling, or the browser editor?', gettingStarted)).toMatch(new RegExp(`^${DECLINE}`))
  })

  test('a phrase is held where a passage holds all its words: "Signed assertions" does not speak of signing up', () => {
    const account: SourceBlock[] = [
      {
        id: 1,
        title: 'SAML',
        url: 'https://docs.example.com/sso-saml',
        content: 'Signed assertions are required for every identity provider.',
      },
      {
        id: 2,
        title: 'Quickstart',
        url: 'https://docs.example.com/quickstart',
        content: 'Sign up for free at the dashboard; the free plan is enough to follow along.',
      },
      {
        id: 3,
        title: 'Flags',
        url: 'https://docs.example.com/flags',
        content: 'A flag has a key and variations.\n\nArchive a flag once its rollout is done.',
      },
    ]
    const answer = extractiveAnswer('I just signed up for the free plan, what now?', account)
    expect(answer).toMatch(/^Sign up for free at the dashboard/)
    expect(answer).not.toContain('Signed assertions')
  })

  test('a long story is answered by a passage that holds six of its words, however many others the docs lack', () => {
    const streaming: SourceBlock[] = [
      {
        id: 1,
        title: 'Stream analytics events to Amazon S3',
        url: 'https://docs.example.com/analytics/streaming',
        content:
          'To add a destination, enter your S3 bucket name and an IAM access key with write access to the bucket.\n\nEvents are delivered in hourly batches.',
      },
    ]
    const story =
      'Our data team wants docs analytics flowing into our warehouse continuously instead of downloading CSV files. We added an S3 bucket as a destination with an IAM access key, but the bucket is still empty a day later. What did we miss?'
    expect(extractiveAnswer(story, streaming)).toContain('IAM access key with write access')
  })

  test('two words the docs never use make a question that no passage speaks of one they do not cover', () => {
    const billing: SourceBlock[] = [
      {
        id: 1,
        title: 'Plans and billing',
        url: 'https://docs.example.com/account/plans',
        content: 'Audit logs are kept for 1 year on Enterprise.\n\nWhen the trial ends, the organization moves to the Free plan.',
      },
      {
        id: 2,
        title: 'Flag cleanup',
        url: 'https://docs.example.com/guides/flag-cleanup',
        content: 'Lumen Flags helps you find flags that are ready to remove.\n\nThe old key keeps working for up to 24 hours.',
      },
    ]
    const question = 'how do I help my 9 year old with long division without us both ending up in tears'
    expect(extractiveAnswer({ question, unknownWords: ['division', 'tears'] }, billing)).toMatch(new RegExp(`^${DECLINE}`))
    // Spoken of (a passage holds three of its words), the words the docs lack are details of what it asks.
    const spoken = 'when the free trial ends does the organization keep its flamingo zeppelin?'
    expect(extractiveAnswer({ question: spoken, unknownWords: ['flamingo', 'zeppelin'] }, billing)).not.toMatch(new RegExp(`^${DECLINE}`))
    // Who does it ("people", "users") is not one of the three: docs are written for them and name them everywhere.
    const tabs: SourceBlock[] = [
      {
        id: 1,
        title: 'Tabs',
        url: 'https://docs.example.com/navigation/tabs',
        content: 'Tabs create a navigation bar that lets users switch between sections.\n\nSplit long pages into sections.',
      },
    ]
    const bar = { question: 'how to split a bar tab fairly when some people only had water', unknownWords: ['fairly', 'water'] }
    expect(extractiveAnswer(bar, tabs)).toMatch(new RegExp(`^${DECLINE}`))
    // A story whose words the sources mostly lack is not one the docs are part of, though a passage holds four of them;
    // a question in the docs' own words is answered by the same passages.
    const publishing: SourceBlock[] = [
      {
        id: 1,
        title: 'Publishing',
        url: 'https://docs.example.com/publishing',
        content:
          'Publish each book of your docs from the editor without waiting for review.\n\nThe agent can publish a draft book for you.',
      },
      {
        id: 2,
        title: 'Agent',
        url: 'https://docs.example.com/agent',
        content: 'The agent writes pages and opens pull requests. Self-hosted sites publish on every merge.',
      },
    ]
    const picture = {
      question:
        "I've written a children's picture book and my kids love it. How do I publish it without an agent? Is self-publishing a bad idea for picture books?",
      unknownWords: ['kids', 'love'],
    }
    expect(extractiveAnswer(picture, publishing)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('How do I publish a draft book without an agent reviewing every page first?', publishing)).toMatch(
      /^The agent can publish a draft book for you\. \[1\]/,
    )
    // A passage that holds five different words of a story speaks of it, however many of the reader's words the docs lack
    // ("not-found" and "404" are one: own, not-found, show, page, message).
    const notFound: SourceBlock[] = [
      {
        id: 1,
        title: 'Custom 404 page',
        url: 'https://docs.example.com/customize/custom-404-page',
        content:
          'Show your own not-found page with a message: it takes a title and a description.\n\nSet `redirect` to `false` to show the custom 404 page.',
      },
    ]
    const deadLink =
      'Right now when someone hits a dead link on our docs they get silently bounced to the homepage, which confuses people. Can I show a proper not-found page with my own message instead?'
    expect(extractiveAnswer(deadLink, notFound)).toMatch(/^Show your own not-found page with a message: it takes a title/)
    // Three tell a story the docs are not part of, though a passage holds three of its words.
    const story = 'when the free trial ends does the organization keep its flamingo zeppelin and marmalade?'
    expect(extractiveAnswer({ question: story, unknownWords: ['flamingo', 'zeppelin', 'marmalade'] }, billing)).toMatch(
      new RegExp(`^${DECLINE}`),
    )
  })

  test('a passage that holds one word of a question of four covers none of it: it is about something else', () => {
    const sources: SourceBlock[] = [
      {
        id: 1,
        title: 'Scheduled changes and progressive rollouts',
        url: 'https://docs.example.com/guides/scheduled-changes',
        content:
          "The pending change appears in the flag's **Scheduled** tab and in the audit log.\n\nThe rollout is visible on the flag page with a progress bar. You can **pause**, **resume** or **stop** it at any time. Stopping leaves the flag at the current percentage.",
      },
      {
        id: 2,
        title: 'Go SDK',
        url: 'https://docs.example.com/sdks/go',
        content:
          '`Close` flushes buffered events and closes the stream. Call it before your process exits:\n\nIn Kubernetes, make sure your `terminationGracePeriodSeconds` leaves time for `Close` to flush.',
      },
      {
        id: 3,
        title: 'Testing with feature flags',
        url: 'https://docs.example.com/guides/testing',
        content:
          "Control flag values in unit tests, integration tests, and local development without calling Lumen Flags.\n\nTests should be fast, deterministic, and shouldn't depend on a network service. Every Lumen Flags SDK offers two tools for this: **offline mode** and a **test data source**.\n\nIn offline mode an SDK makes no network connections and sends no events. Every evaluation returns your default value, unless you load flag values from a file.\n\nEnable it in code with the `offline` option, or without code changes by setting an environment variable:",
      },
    ]
    // "leaves time for Close", "the Scheduled tab", "a progress bar": each holds one of the question's words.
    const bar = { question: 'Is it rude to leave without closing out my tab at the bar?', unknownWords: ['rude'] }
    expect(extractiveAnswer(bar, sources)).toMatch(new RegExp(`^${DECLINE}`))
    // A passage that holds two of them covers them.
    expect(extractiveAnswer('when I stop a rollout, which percentage does the flag stay at?', sources)).toMatch(
      /Stopping leaves the flag at the current percentage\. \[1\]/,
    )
  })

  test('asked to do what the docs never speak of (a verb they never use), the question is not theirs', () => {
    const cli: SourceBlock[] = [
      {
        id: 1,
        title: 'CLI',
        url: 'https://docs.example.com/cli',
        content: 'Run quality checks before deploying to production.\n\nRun the local preview after each change.',
      },
    ]
    const stretch = { question: 'Should I stretch before or after a run?', unknownWords: ['stretch'] }
    expect(extractiveAnswer(stretch, cli)).toMatch(new RegExp(`^${DECLINE}`))
    // A verb the docs use elsewhere, only not in these passages, says how in other words: it weighs less, as before.
    expect(extractiveAnswer({ question: 'Should I stretch before or after a run?', unknownWords: [] }, cli)).toContain(
      'Run quality checks before deploying',
    )
  })

  test("a reader's hedges and feelings are not words the docs lack: a bit scared, a bunch of pages", () => {
    const access: SourceBlock[] = [
      {
        id: 1,
        title: 'Dashboard access policies',
        url: 'https://docs.example.com/dashboard/network-access',
        content:
          'Allow a CIDR range to grant dashboard access to an entire office or VPN network.\n\nAdd your current address first so that you do not lock yourself out.',
      },
    ]
    // The docs never say "bit", "scared" or "myself": only "myself" is a word of the reader's own story.
    const question = 'can I limit dashboard access to our office VPN range? a bit scared of locking myself out while setting it up'
    const vpn = { question, unknownWords: ['bit', 'scared', 'myself'] }
    expect(extractiveAnswer(vpn, access)).toMatch(/^Allow a CIDR range to grant dashboard access/)
    // Three words of a story the docs lack still make it one they are not part of.
    const janitor = { question: question.replace('a bit scared', 'the janitor mops'), unknownWords: ['janitor', 'mops', 'myself'] }
    expect(extractiveAnswer(janitor, access)).toMatch(new RegExp(`^${DECLINE}`))
  })

  test('an age is a person, and a pair after everyday words is one thing: neither is answered by its words apart', () => {
    const sources: SourceBlock[] = [
      {
        id: 1,
        title: 'Plans and billing',
        url: 'https://docs.example.com/account/plans',
        content: 'Audit logs are kept for 1 year on Enterprise.\n\nThe old key keeps working for up to 24 hours.',
      },
      {
        id: 2,
        title: 'Self-host',
        url: 'https://docs.example.com/deploy/self-host',
        content: 'Production needs 4 vCPUs. Non-production environments run at about half that.',
      },
    ]
    // "7-year-old" matched "1 year" and "the old key"; a kid is a word these docs never use.
    const sleep = { question: 'How many hours of sleep does a 7-year-old actually need?', unknownWords: ['sleep', 'kid'] }
    expect(extractiveAnswer(sleep, sources)).toMatch(new RegExp(`^${DECLINE}`))
    // "A first half marathon" is a kind of marathon, which no passage holds beside "half".
    const marathon = { question: 'tips for running a first half marathon', unknownWords: ['marathon'] }
    expect(extractiveAnswer(marathon, sources)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('how much do non-production environments run at?', sources)).toContain('about half that')
  })

  test('asked to do something to a thing the docs never name, or what it does, it declines; a misspelt thing is not another', () => {
    const sources: SourceBlock[] = [
      {
        id: 1,
        title: 'Redirects',
        url: 'https://docs.example.com/create/redirects',
        content: 'This redirects `/source/path` to `/destination/path`.',
      },
      {
        id: 3,
        title: 'Linking',
        url: 'https://docs.example.com/guides/linking',
        content: 'Too many links pull readers away from the foundation of a page.',
      },
      {
        id: 2,
        title: 'Webhooks',
        url: 'https://docs.example.com/guides/webhooks',
        content: 'Verify the webhook signature with your signing secret before you trust a payload.',
      },
    ]
    const downspout = { question: 'how to redirect a downspout away from the foundation', unknownWords: ['downspout'] }
    expect(extractiveAnswer(downspout, sources)).toMatch(new RegExp(`^${DECLINE}`))
    const typo = { question: 'how to verify the webhok signature', unknownWords: ['webhok'] }
    expect(extractiveAnswer(typo, sources)).toContain('Verify the webhook signature')
    // So with what a question asks a thing does: the thing is what it is about.
    const deploys: SourceBlock[] = [
      {
        id: 1,
        title: 'Deployments',
        url: 'https://docs.example.com/deploy',
        content:
          'A preview deploys when you open a pull request.\n\nSpeed up a slow upload.\n\nDeploy from the dashboard.\n\nEach branch has its own preview.',
      },
      {
        id: 2,
        title: 'Monitoring',
        url: 'https://docs.example.com/monitoring',
        content: 'Errors are logged.\n\nThe site deploys again after a crash.',
      },
    ]
    const airbags = { question: 'When do airbags deploy in a low-speed crash?', unknownWords: ['airbags'] }
    expect(extractiveAnswer(airbags, deploys)).toMatch(new RegExp(`^${DECLINE}`))
    // So with a question that opens on a thing and how it behaves: the thing is what it is about.
    const sdk: SourceBlock[] = [
      {
        id: 1,
        title: 'SDK troubleshooting',
        url: 'https://docs.example.com/troubleshooting/sdk',
        content: 'When a process keeps running after you flush the events, fix it by calling `close()`: it ends the timers.',
      },
    ]
    const toilet = { question: 'toilet keeps running after I flush, how do I fix it', unknownWords: ['toilet'] }
    expect(extractiveAnswer(toilet, sdk)).toMatch(new RegExp(`^${DECLINE}`))
    const process = { question: 'my process keeps running after I flush, how do I fix it' }
    expect(extractiveAnswer(process, sdk)).toContain('calling `close()`')
    const known = { question: 'When do previews deploy after a crash?', unknownWords: [] }
    expect(extractiveAnswer(known, deploys)).toMatch(/^A preview deploys/)
    const previw = { question: 'When do previws deploy after a crash?', unknownWords: ['previws'] }
    expect(extractiveAnswer(previw, deploys)).not.toMatch(new RegExp(`^${DECLINE}`))
    // Asked in the passive, the thing is the last word before "be"; a word of four letters is no misspelling of another
    // ("shoe" of "show": short words have too many neighbours one letter away).
    const schedules: SourceBlock[] = [
      {
        id: 1,
        title: 'Schedules',
        url: 'https://docs.example.com/schedules',
        content:
          'Each automation runs on a schedule, up to a limit of 500 runs a day.\n\nA replaced page keeps its old URL.\n\nShow the run history of each automation.',
      },
    ]
    const shoes = { question: 'how often should running shoes be replaced', unknownWords: ['shoes'] }
    expect(extractiveAnswer(shoes, schedules)).toMatch(new RegExp(`^${DECLINE}`))
    const pages = { question: 'how should replaced pages be redirected', unknownWords: [] }
    expect(extractiveAnswer(pages, schedules)).not.toMatch(new RegExp(`^${DECLINE}`))
  })

  test('a name no source holds declines, unless a long question the docs speak of tells it', () => {
    const assistant: SourceBlock[] = [
      {
        id: 1,
        title: 'Assistant settings',
        url: 'https://docs.example.com/assistant/configure',
        content:
          'When the assistant cannot answer, it shows a contact form.\n\nSet a help center URL to send readers to your own support site instead of the contact form.',
      },
      {
        id: 2,
        title: 'Widget',
        url: 'https://docs.example.com/assistant/widget',
        content: 'The widget opens the assistant from any page.',
      },
    ]
    const question =
      "When the AI assistant can't answer, we want it to send people to our Zendesk help center instead of showing an email form"
    expect(extractiveAnswer({ question }, assistant)).toBe(
      'Set a help center URL to send readers to your own support site instead of the contact form. [1]',
    )
    // The docs never use the name, but one passage holds five of the question's words: it answers what is asked, and
    // the help center's make is a detail of the reader's (see STORY_SPOKEN_OF).
    expect(extractiveAnswer({ question, unknownWords: ['zendesk'] }, assistant)).toBe(
      'Set a help center URL to send readers to your own support site instead of the contact form. [1]',
    )
    // With fewer of them in one passage, the name the docs never use is what the question is about.
    const shorter = 'can it send people to our Zendesk help center?'
    expect(extractiveAnswer({ question: shorter }, assistant)).toMatch(/^Set a help center URL/)
    expect(extractiveAnswer({ question: shorter, unknownWords: ['zendesk'] }, assistant)).toMatch(new RegExp(`^${DECLINE}`))
    // A short question is about the name it asks for, which the docs may mention elsewhere (a list of languages).
    const sdks: SourceBlock[] = [
      {
        id: 1,
        title: 'SDKs',
        url: 'https://docs.example.com/sdks',
        content: 'Lumen Flags has SDKs for Go, Python and JavaScript.\n\nEach SDK evaluates flags locally.',
      },
    ]
    expect(extractiveAnswer({ question: 'Is there a Ruby SDK?' }, sdks)).toMatch(new RegExp(`^${DECLINE}`))
    // A name the docs never use is a detail of a long story they speak of, and what a short question asks for.
    const languages: SourceBlock[] = [
      {
        id: 1,
        title: 'Languages',
        url: 'https://docs.example.com/languages',
        content:
          'Add a Spanish translation of your docs under `es/`.\n\nThe first language in the list loads by default; readers switch languages from the language dropdown.\n\nEnglish stays available to readers who pick it.',
      },
      { id: 2, title: 'Navigation', url: 'https://docs.example.com/navigation', content: 'Group pages in the sidebar by topic.' },
    ]
    const story =
      "We're adding a Spanish translation of our docs and most of our users are in Latin America. I want the site to load in Spanish by default while English stays available in the language dropdown. How do I set that up?"
    expect(extractiveAnswer({ question: story, unknownWords: ['latin'] }, languages)).toContain('loads by default')
    const latin = { question: 'Is there a Latin translation?', unknownWords: ['latin'] }
    expect(extractiveAnswer(latin, languages)).toMatch(new RegExp(`^${DECLINE}`))
  })

  test('a thing named in two words is spoken of where one passage holds both words, not where each is held apart', () => {
    const writing: SourceBlock[] = [
      {
        id: 1,
        title: 'Writing style',
        url: 'https://docs.example.com/guides/style',
        content: 'This guide covers how to write clear technical pages.',
      },
      {
        id: 2,
        title: 'Skills',
        url: 'https://docs.example.com/skills',
        content: 'A slug holds only lowercase letters, numbers and hyphens.',
      },
      { id: 3, title: 'Navigation', url: 'https://docs.example.com/navigation', content: 'Group pages in the sidebar by topic.' },
    ]
    expect(extractiveAnswer('How do I write a cover letter?', writing).startsWith(DECLINE)).toBe(true)
    expect(
      extractiveAnswer('How do I write a cover letter?', [{ ...writing[0]!, content: 'Write a cover letter for each release.' }]),
    ).toBe('Write a cover letter for each release. [1]')
    // Held apart, but one passage holds three of the question's words: the docs speak of what it asks.
    const keys: SourceBlock[] = [
      {
        id: 1,
        title: 'Environments',
        url: 'https://docs.example.com/environments',
        content: 'Rotate a server key in staging without downtime.',
      },
      { id: 2, title: 'SDKs', url: 'https://docs.example.com/sdks', content: 'Each SDK reads the environment it is given.' },
      { id: 3, title: 'Staging', url: 'https://docs.example.com/staging', content: 'Staging mirrors production. Rotate its logs daily.' },
    ]
    expect(extractiveAnswer('how do I rotate an sdk key in staging?', keys)).toBe('Rotate a server key in staging without downtime. [1]')
  })

  test('"pay off" (a debt) is a phrase: a passage holds it where it holds both words, not where it says "pay for"', () => {
    const billing: SourceBlock[] = [
      {
        id: 1,
        title: 'Plans and billing',
        url: 'https://docs.example.com/billing',
        content:
          '- Pay for Team plans by credit card (Visa, Mastercard, American Express). Monthly plans renew each month.\n- Enterprise customers can pay by bank transfer on annual invoices.\n- **Startups** with under $5M in funding get 50% off the Team plan for the first year.',
      },
    ]
    const debt = { question: 'pay off my credit card first or build an emergency fund?', unknownWords: ['emergency'] }
    expect(extractiveAnswer(debt, billing)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('how do I pay by credit card?', billing)).toContain('Pay for Team plans by credit card')
  })

  test('"questions" and "ask" are one thing said twice: "ask" weighs as an everyday word beside it', () => {
    const comments: SourceBlock[] = [
      {
        id: 1,
        title: 'Comments',
        url: 'https://docs.example.com/editor/comments',
        content: 'Use comments to ask questions and flag issues before reviewers sign off on a change.',
      },
      { id: 2, title: 'SSO', url: 'https://docs.example.com/sso', content: 'Members who sign in with SSO are added to the default group.' },
    ]
    const lease = { question: 'what questions should i ask a landlord before signing a lease', unknownWords: ['landlord', 'lease'] }
    expect(extractiveAnswer(lease, comments)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('how do I ask questions about a change before it is signed off?', comments)).toContain(
      'Use comments to ask questions',
    )
  })

  test('a question of two words of its own, one of which the docs never use, is about something else', () => {
    const certificates: SourceBlock[] = [
      {
        id: 1,
        title: 'Custom domains',
        url: 'https://docs.example.com/domains',
        content: 'Certificates are automatically renewed before expiration.',
      },
      {
        id: 2,
        title: 'Credits',
        url: 'https://docs.example.com/credits',
        content: 'The credits a single run consumes depend on how long the run takes.',
      },
    ]
    const passport = { question: 'how long does it take to renew a passport', unknownWords: ['passport'] }
    expect(extractiveAnswer(passport, certificates)).toMatch(new RegExp(`^${DECLINE}`))
    expect(extractiveAnswer('how long does it take to renew a certificate', certificates)).toContain(
      'Certificates are automatically renewed',
    )
  })

  test('a thing named in two words whose second the docs never use is something else: the first word does not cover it', () => {
    const analytics: SourceBlock[] = [
      {
        id: 1,
        title: 'Analytics',
        url: 'https://docs.example.com/analytics',
        content:
          'Analytics require a Pro plan.\n\nAnalytics show visitors and searches.\n\nExport analytics as CSV.\n\nFilter analytics by date.',
      },
      {
        id: 2,
        title: 'Audience',
        url: 'https://docs.example.com/audience',
        content: 'Use session replay tools and analytics to study how readers move through your docs.',
      },
      {
        id: 3,
        title: 'Navigation',
        url: 'https://docs.example.com/navigation',
        content: 'Group pages in the sidebar by topic.\n\nName each group.',
      },
    ]
    const asked = { question: 'Which analytics degree should I study?', unknownWords: ['degree'] }
    expect(extractiveAnswer(asked, analytics).startsWith(DECLINE)).toBe(true)
  })

  test('a thing named in two words whose first the docs never use, and no misspelling of theirs, is something else too', () => {
    // The fresh round twenty-four's "which component of a washing machine usually fails first" quoted a machine off the
    // VPN and an intermittent failure: "component", "machine" and "fails" are the docs' words, a washing machine is not.
    const sources: SourceBlock[] = [
      {
        id: 1,
        title: 'React components',
        url: 'https://docs.example.com/react-components',
        content: 'Component files must be in the snippets folder.\n\nImport a component by its path.',
      },
      {
        id: 2,
        title: 'OpenAPI fetch fails',
        url: 'https://docs.example.com/openapi-fetch',
        content:
          'Run these commands from a machine that is not on your VPN: a deployment machine on it fails first.\n\nAn intermittent failure usually means the deployment starts before the spec finishes.\n\nThis failure mode is intermittent by nature.',
      },
      {
        id: 3,
        title: 'Quickstart',
        url: 'https://docs.example.com/quickstart',
        content: 'Your first deployment takes a minute.\n\nInstall the CLI.',
      },
    ]
    const ask = (question: string, unknownWords: string[]) => extractiveAnswer({ question, unknownWords }, sources)
    expect(ask('which component of a washing machine usually fails first', ['washing']).startsWith(DECLINE)).toBe(true)
    // A misspelling of the docs' own word ("deploymnet") still names their thing.
    expect(ask('which component of a deploymnet machine usually fails first', ['deploymnet']).startsWith(DECLINE)).toBe(false)
  })

  test("the reader's own thing, or what they want one for, that the docs never name is what the question is about", () => {
    const rollouts: SourceBlock[] = [
      {
        id: 1,
        title: 'Percentage rollouts',
        url: 'https://docs.example.com/guides/percentage-rollouts',
        content:
          'To start a percentage rollout of a flag, run the rollout command.\n\nA rollout serves the new variation to a share of your contexts, and a broken rollout is stopped with the kill switch.',
      },
    ]
    // Three of the four words are the docs' own; the one they never use is whose rollout it is, or what it is for.
    for (const [question, never] of [
      ['how do I start a percentage rollout of my garden?', 'garden'],
      ["how do I stop my neighbor's broken rollout?", 'neighbor'],
      ['how do I start a percentage rollout for hiking?', 'hiking'],
      ['how do I start a percentage rollout on our bakery website?', 'bakery'],
    ] as const) {
      expect(extractiveAnswer({ question, unknownWords: [never] }, rollouts), question).toMatch(new RegExp(`^${DECLINE}`))
    }
    // A word the docs never use elsewhere in the question is a detail of what they do speak of.
    for (const [question, never] of [
      ['how do I start a percentage rollout of a flag without downtime?', 'downtime'],
      ['how do I start a percentage rollout for the nodejs flag?', 'nodejs'],
      ['how do I start a percentage rollout of my flag fast?', 'fast'],
      ['how do I stop my rollout safely?', 'safely'],
    ] as const) {
      const answer = extractiveAnswer({ question, unknownWords: [never] }, rollouts)
      expect(answer, question).toMatch(/^(To start a percentage rollout|A rollout serves).* \[1\]/)
    }
    // So is a word read as the reader's thing when one passage speaks of five of the question's words: "partway" is
    // when, not what ("our deployment partway").
    const deployments: SourceBlock[] = [
      {
        id: 1,
        title: 'Deployments',
        url: 'https://docs.example.com/deploy/deployments',
        content:
          "## Delete a deployment\n\nDeleting a deployment is permanent and cannot be undone. If you have an active subscription, you'll receive a prorated credit for any unused time remaining in your billing period.",
      },
    ]
    const partway = 'If we delete our deployment partway through the billing cycle, do we get anything back for the unused time?'
    expect(extractiveAnswer({ question: partway, unknownWords: ['partway'] }, deployments)).toMatch(
      /^If you have an active subscription, you'll receive a prorated credit.* \[1\]$/,
    )
    // One with fewer of them in a passage is still the reader's own thing.
    const garden = 'If we delete our garden partway through the billing period, what happens?'
    expect(extractiveAnswer({ question: garden, unknownWords: ['garden', 'partway'] }, deployments)).toMatch(new RegExp(`^${DECLINE}`))
  })

  test("an API endpoint page's operation answers a question that asks for the API, before a page that shares its verb", () => {
    const deployments: SourceBlock[] = [
      {
        id: 1,
        title: 'Get deployment status',
        url: 'https://docs.example.com/api/update/status',
        // What chunk.ts makes of a page generated from an OpenAPI operation (no body of its own).
        content: 'Get deployment status\n\n`GET /project/update-status/{statusId}` (API endpoint)',
      },
      {
        id: 2,
        title: 'Private repository missing',
        url: 'https://docs.example.com/help/private-repo',
        content: 'Continue onboarding to finish creating the second deployment.',
      },
    ]
    const answer = extractiveAnswer('api to check whether a deployment finished', deployments)
    expect(answer.startsWith('Get deployment status: `GET /project/update-status/{statusId}` (API endpoint) [1]')).toBe(true)
  })

  test('asked through the API, the operation leads an answer over a guide that holds more of the words', () => {
    const content: SourceBlock[] = [
      {
        id: 1,
        title: 'Migrate from ReadMe',
        url: 'https://docs.example.com/migration/readme',
        content: 'Content retrieved through your current platform API stays as it is.',
      },
      {
        id: 2,
        title: 'Get page content',
        url: 'https://docs.example.com/api/page-content',
        content: 'Get page content\n\n`POST /v1/page/{domain}` (API endpoint)\n\n## Rate limits\n\n10,000 requests per hour.',
      },
    ]
    const lead = (question: string) => extractiveAnswer(question, content).split('\n\n')[0]
    expect(lead('api to fetch the raw content of a page')).toBe('Get page content: `POST /v1/page/{domain}` (API endpoint) [2]')
    expect(lead('retrieve the raw content of a page from a script')).toBe('Get page content: `POST /v1/page/{domain}` (API endpoint) [2]')
  })

  test('asked for all of a kind, the page whose title names the kind leads, not one that names some in passing', () => {
    const components: SourceBlock[] = [
      {
        id: 1,
        title: 'Migrate from Fern',
        url: 'https://docs.example.com/migration/fern',
        content: 'Fern pages hold:\n\n- Custom MDX components\n- Embedded API explorers',
      },
      {
        id: 2,
        title: 'Components overview',
        url: 'https://docs.example.com/components',
        content: 'Acme provides built-in MDX components for your documentation pages: tabs, steps, cards and more.',
      },
    ]
    const lead = (question: string) => extractiveAnswer(question, components).split('\n\n')[0]
    expect(lead('list of all the components I can use in mdx')).toBe(
      'Acme provides built-in MDX components for your documentation pages: tabs, steps, cards and more. [2]',
    )
    expect(lead('which components are available?')).toBe(lead('list of all the components I can use in mdx'))
    // "Available" says how the question asks, not what about: not the one sentence that holds both words.
    const sdks: SourceBlock[] = [
      {
        id: 1,
        title: 'SDK overview',
        url: 'https://docs.example.com/sdks',
        content:
          'Acme provides official SDKs for Node.js, Python and Go.\n\nOnly flags marked Available to client-side SDKs reach browsers.',
      },
    ]
    expect(extractiveAnswer('which sdks are available?', sdks).startsWith('Acme provides official SDKs for Node.js, Python and Go.')).toBe(
      true,
    )
    // The kind named inside code (a host name) is not the kind named in a sentence.
    const hosts: SourceBlock[] = [
      {
        id: 1,
        title: 'SDK overview',
        url: 'https://docs.example.com/sdks',
        content:
          'Hosts to allow:\n\n- `sdk.acme.dev` for polling\n- `events.acme.dev` for events\n\nAcme has official SDKs for Node.js, Python and Go, each with its own guide.',
      },
      { id: 2, title: 'Flags', url: 'https://docs.example.com/flags', content: 'Each flag has a key.' },
    ]
    expect(extractiveAnswer('which sdks are available?', hosts)).not.toContain('`sdk.acme.dev`')
  })

  test('a question that asks for an amount ("how long", "how many") is answered first by a passage that gives one', () => {
    const auditLog: SourceBlock = {
      id: 1,
      title: 'Audit log',
      url: 'https://docs.example.com/account/audit-log',
      content:
        'The audit log records every change. Entries are immutable: nobody can edit or delete them.\n\n## Retention\n\n| Plan | Retention |\n| --- | --- |\n| Free | 7 days |\n| Team | 90 days |\n\nTo keep entries longer, export them regularly or stream them to your own storage.\n\n## What an entry contains\n\nEach entry records who made the change, when, and from where.',
    }
    expect(extractiveAnswer('How long are audit log entries kept?', [auditLog])).toMatch(/^- Plan: Free; Retention: 7 days \[1\]/)
  })

  test('the words of a question form ("difference between") and amounts ("100k") need not be in the answer', () => {
    const flags: SourceBlock[] = [
      {
        id: 1,
        title: 'Flags › Temporary and permanent flags',
        url: 'https://docs.example.com/concepts/flags#lifetime',
        content:
          '**Temporary** flags are release flags you remove once the rollout is done.\n\n**Permanent** flags are kill switches and entitlements that stay.',
      },
      {
        id: 2,
        title: 'Plans and billing',
        url: 'https://docs.example.com/account/plans',
        content:
          'Each plan includes a number of monthly active contexts (MACs). Over the plan limit, you pay $5 for each extra 1,000 MACs.',
      },
    ]
    const difference = extractiveAnswer('what is the difference between temporary and permanent flags?', flags)
    expect(difference).toContain('**Temporary** flags are release flags')
    const amount = extractiveAnswer({ question: 'what do I pay if I go over 100k MACs', unknownWords: ['100k'] }, flags)
    expect(amount).toContain('Over the plan limit, you pay $5 for each extra 1,000 MACs. [2]')
    // Written in words, an amount is one too.
    const inWords = extractiveAnswer({ question: 'what do I pay over two thousand MACs', unknownWords: ['two', 'thousand'] }, flags)
    expect(inWords).toContain('Over the plan limit, you pay $5 for each extra 1,000 MACs. [2]')
  })

  test("the product's name, asked whole, names no subject: the first source's opening answers; one of its words does", () => {
    const start: SourceBlock[] = [
      {
        id: 1,
        title: 'Quickstart',
        url: 'https://docs.example.com/quickstart',
        content: 'Install the SDK, create a flag and evaluate it in five minutes.\n\nFirst, create a project in the dashboard.',
      },
      {
        id: 2,
        title: 'Start jobs',
        url: 'https://docs.example.com/api/start-job',
        content: 'Lumen Flags starts an export job when you call this endpoint. Contact sales to get started with exports.',
      },
    ]
    const answer = extractiveAnswer({ question: 'how do I get started with Lumen Flags?', docsName: 'Lumen Flags' }, start)
    expect(answer.startsWith('Install the SDK, create a flag and evaluate it in five minutes.')).toBe(true)
    expect(answer).not.toContain('[2]')
    // One word of the name alone is an ordinary word of the docs, and a subject.
    const projects: SourceBlock[] = [
      {
        id: 1,
        title: 'Projects',
        url: 'https://docs.example.com/projects',
        content: 'A project holds environments and members.\n\nCreate a project per product.\n\nArchive a project to hide it.',
      },
      {
        id: 2,
        title: 'Limits',
        url: 'https://docs.example.com/limits',
        content: 'A project can have up to 5,000 flags.\n\nAn organization can have 100 projects.',
      },
    ]
    const limit = extractiveAnswer({ question: 'how many flags can a project have?', docsName: 'Lumen Flags' }, projects)
    expect(limit.startsWith('A project can have up to 5,000 flags. [2]')).toBe(true)
  })

  test('code is quoted with the sentence that introduces it, which cites its source', () => {
    const snippets: SourceBlock[] = [
      {
        id: 1,
        title: 'Text',
        url: 'https://docs.example.com/create/text',
        content: 'Each page is one MDX file.\n\nA paragraph is plain text between blank lines.',
      },
      {
        id: 2,
        title: 'Reusable snippets',
        url: 'https://docs.example.com/create/reusable-snippets',
        content:
          'Write the shared content in a file of its own:\n\n```mdx snippets/shared.mdx\nReuse this paragraph on several pages.\n```',
      },
    ]
    const answer = extractiveAnswer('reuse the same paragraph on several pages', snippets)
    expect(answer).toContain('Write the shared content in a file of its own: [2]\n\n```mdx snippets/shared.mdx')
  })

  test('code blocks side by side (a code group) share the sentence before the first', () => {
    const webhooks: SourceBlock[] = [
      {
        id: 1,
        title: 'Webhooks › Verify signatures',
        url: 'https://docs.example.com/guides/webhooks#verify',
        content: [
          'Reject requests whose timestamp is more than 5 minutes old to prevent replay attacks.',
          '```typescript Node.js\nexport function verify(body: string) {}\n```',
          '```python Python\nimport hmac\ndef verify_signature(raw_body): pass\n```',
        ].join('\n\n'),
      },
      {
        id: 2,
        title: 'Pages',
        url: 'https://docs.example.com/organize/pages',
        content: 'Each page is one MDX file. Its frontmatter sets the title. The sidebar lists pages in order. Icons come from Lucide.',
      },
    ]
    const answer = extractiveAnswer('verify_signature with hmac in python', webhooks)
    expect(answer).toContain(
      'Reject requests whose timestamp is more than 5 minutes old to prevent replay attacks. [1]\n\n```python Python',
    )
  })

  test('the best sentence ending in ":" brings the code it introduces, not a closer match from another source', () => {
    const media: SourceBlock[] = [
      {
        id: 1,
        title: 'Images and embeds',
        url: 'https://docs.example.com/create/image-embeds',
        content: 'Embed YouTube videos using iframe elements:\n\n```html\n<iframe src="https://www.youtube.com/embed/id"></iframe>\n```',
      },
      {
        id: 2,
        title: 'Accessibility',
        url: 'https://docs.example.com/guides/accessibility',
        content:
          'Give every embedded video a transcript:\n\n```mdx\n<iframe title="Embed a YouTube video"></iframe>\n<Accordion title="Video transcript">Embed YouTube videos…</Accordion>\n```',
      },
      {
        id: 3,
        title: 'Pages',
        url: 'https://docs.example.com/organize/pages',
        content: 'Each page is one MDX file. Its frontmatter sets the title. The sidebar lists pages in order. Icons come from Lucide.',
      },
    ]
    const answer = extractiveAnswer('how do I embed a youtube video', media)
    expect(answer.startsWith('Embed YouTube videos using iframe elements: [1]\n\n```html\n<iframe src=')).toBe(true)
    // One code block, and no sentence left on its colon without the code it introduces.
    expect(answer.match(/```/g)).toHaveLength(2)
    expect(answer).not.toContain('Give every embedded video a transcript:')
  })

  /** The Hotjar page: a sentence that names "the following", then the block it introduces. */
  const hotjarPage = (more = ''): SourceBlock => ({
    id: 1,
    title: 'Hotjar',
    url: 'https://docs.example.com/integrations/analytics/hotjar',
    content: `Add the following to your \`docs.json\` file to send analytics to Hotjar.\n\n\`\`\`json\n"integrations": { "hotjar": { "hjid": "required", "hjsv": "required" } }\n\`\`\`${more}`,
  })

  test('a sentence that names "the following" brings the code after it, as one ending in ":" does', () => {
    const answer = extractiveAnswer('how do I send analytics to hotjar?', [hotjarPage()])
    expect(answer).toMatch(/^Add the following to your `docs.json` file to send analytics to Hotjar\. \[1\]\n\n```json\n"integrations"/)
  })

  test('asked on a page only for what it takes, in words none of its sentences hold, the page introduces itself', () => {
    const hotjar = hotjarPage('\n\n## Session recordings\n\nRecordings start once visitors accept cookies.')
    const others: SourceBlock[] = ['Navigation', 'Deployments', 'Themes'].map((title, i) => ({
      id: i + 2,
      title,
      url: `https://docs.example.com/${title.toLowerCase()}`,
      content: `${title} are set in docs.json. Each page of the ${title.toLowerCase()} guide has examples.`,
    }))
    const asked = 'which two values does this need, and where do they go?'
    const onHotjar = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Hotjar') }, [hotjar, ...others])
    expect(onHotjar).toContain('Add the following to your `docs.json` file to send analytics to Hotjar. [1]')
    expect(onHotjar).toContain('"hjsv": "required"')
    // Asked on no page, the question names nothing to answer.
    expect(isDecline(extractiveAnswer(asked, [hotjar, ...others]))).toBe(true)
  })

  test("a sentence whose code is too long to quote neither opens an answer nor a page's opening", () => {
    const longCode = ['```bash', ...Array.from({ length: 14 }, (_, i) => `mint step-${i}`), '```'].join('\n')
    const install: SourceBlock[] = [
      {
        id: 1,
        title: 'Install the CLI',
        url: 'https://docs.example.com/cli/install',
        content: `To reinstall the CLI after a failed upgrade, run these commands:\n\n${longCode}\n\nThe CLI needs Node.js 20.17 or later. Reinstall the CLI after you upgrade Node.js.`,
      },
      {
        id: 2,
        title: 'Quickstart',
        url: 'https://docs.example.com/quickstart',
        content: 'Deploy your docs from the dashboard. Pages are MDX files in your repository. Each push deploys the site.',
      },
    ]
    const answer = extractiveAnswer('how do I reinstall the CLI', install)
    expect(answer).not.toContain('run these commands:')
    expect(answer).toContain('Reinstall the CLI after you upgrade Node.js. [1]')
    // Nothing asked but the page: its opening, without the sentence cut off from its code.
    const opening = extractiveAnswer({ question: 'what is this?', standalone: onPage('what is this?', 'Install the CLI') }, install)
    expect(opening.startsWith('The CLI needs Node.js 20.17 or later.')).toBe(true)
  })

  test('quotes the source that holds a name the question asks about, not only the one matching its other words', () => {
    const traffic: SourceBlock[] = [
      {
        id: 1,
        title: 'Traffic analytics',
        url: 'https://docs.example.com/analytics/traffic',
        content:
          'Track your docs traffic on the Traffic page: visitors, page views and referrals for every page.\n\nTraffic figures update every hour.',
      },
      {
        id: 2,
        title: 'Analytics integrations › Plausible',
        url: 'https://docs.example.com/integrations/plausible',
        content: 'Add your Plausible domain to send page views to Plausible.\n\nPlausible counts traffic without cookies.',
      },
    ]
    expect(extractiveAnswer('how do I track my docs traffic with Plausible?', traffic)).toContain(
      'Plausible counts traffic without cookies. [2]',
    )
  })

  test('a first source with nothing to quote (links only) declines a question that asks nothing but about it', () => {
    const links: SourceBlock[] = [{ id: 1, title: 'More', url: 'https://docs.example.com/more', content: '[Setup](/setup)\n\n[API](/api)' }]
    expect(extractiveAnswer('what is this?', links).startsWith(DECLINE)).toBe(true)
  })

  test('a quoted sentence that links to another source cites that source too; links elsewhere cite nothing more', () => {
    const overview: SourceBlock[] = [
      {
        id: 1,
        title: 'AI features',
        url: 'https://docs.example.com/ai#writing',
        content:
          'Readers chat with the [assistant](/assistant/) for answers to their questions, or from your own app through the [API](../api/messages#request).\n\nThe agent opens pull requests ([GitHub](https://github.com/docs)).',
      },
      {
        id: 2,
        title: 'Assistant',
        url: 'https://docs.example.com/assistant',
        content: 'Turn the assistant on in the dashboard.',
      },
      { id: 3, title: 'Create a message', url: 'https://docs.example.com/api/messages', content: '`POST /v2/message`' },
    ]
    expect(extractiveAnswer('how do readers chat with the assistant from my own app?', overview)).toContain(
      'through the [API](../api/messages#request). [1][2][3]',
    )
    const pullRequests = extractiveAnswer('does the agent open pull requests?', overview)
    expect(pullRequests).toContain('The agent opens pull requests ([GitHub](https://github.com/docs)). [1]')
    expect(pullRequests).not.toContain('[1][')
  })

  test("a pointer in the quoted sentence's paragraph ('See [Redirects](…).') cites the source it points to", () => {
    const glossary: SourceBlock[] = [
      {
        id: 1,
        title: 'Glossary',
        url: 'https://docs.example.com/glossary#redirect',
        content:
          'A rule that sends visitors from an old URL to a new destination. Redirects keep links working. See [Redirects](/redirects).\n\nA slug is the last part of a URL.',
      },
      { id: 2, title: 'Redirects', url: 'https://docs.example.com/redirects', content: 'Add `redirects` to docs.json.' },
    ]
    const answer = extractiveAnswer('send visitors from an old url to a new one', glossary)
    expect(answer).toContain('A rule that sends visitors from an old URL to a new destination. [1][2]')
    // Only within its paragraph.
    expect(extractiveAnswer('what is the last part of a url called?', glossary)).toBe('A slug is the last part of a URL. [1]')
  })

  test("an FAQ entry is quoted with its answer, not as the reader's own question repeated", () => {
    const faq: SourceBlock[] = [
      {
        id: 1,
        title: 'Custom domains',
        url: 'https://docs.example.com/domains#faq',
        content: [
          '## Frequently asked questions',
          '',
          'How long does a new domain take to verify?',
          '',
          'Most domains verify within ten minutes of the DNS record being added, and always within a day, because the record has to reach every resolver we check before we issue the certificate for it.',
          '',
          'Can two sites share one domain?',
          '',
          'No.',
        ].join('\n'),
      },
    ]
    const answer = extractiveAnswer('how long does it take for a new domain to verify?', faq)
    expect(answer).toMatch(/^How long does a new domain take to verify\? Most domains verify within ten minutes/)
    expect(answer).not.toMatch(/verify\? \[1\]/)
  })

  test("a problem's title is quoted with its whole answer: why, then the steps its last sentence introduces", () => {
    const troubleshooting: SourceBlock[] = [
      {
        id: 1,
        title: 'Install the CLI › Troubleshooting',
        url: 'https://docs.example.com/cli/install#troubleshooting',
        content: [
          'Error: Could not load the "sharp" module using the darwin-arm64 runtime',
          '',
          'This may be due to an outdated version of Node.js. Try the following:',
          '',
          '1. Remove the installed CLI: `npm uninstall -g mint`',
          '2. Upgrade to Node.js v20.17.0+.',
          '3. Reinstall the CLI: `npm install -g mint`',
          '',
          'Error: permission denied when installing the package globally on a shared machine',
          '',
          'Run the install with `sudo`. Enter your password when asked.',
        ].join('\n'),
      },
    ]
    expect(extractiveAnswer("the install says 'could not load the sharp module'. fix?", troubleshooting)).toBe(
      [
        'Error: Could not load the "sharp" module using the darwin-arm64 runtime: This may be due to an outdated version of Node.js. Try the following:',
        '- Remove the installed CLI: `npm uninstall -g mint`',
        '- Upgrade to Node.js v20.17.0+.',
        '- Reinstall the CLI: `npm install -g mint` [1]',
      ].join('\n'),
    )
  })

  test('a short sentence quoted first goes on with the next of its paragraph: what, then what to do', () => {
    const deprecated: SourceBlock[] = [
      {
        id: 1,
        title: 'Get agent job (v1)',
        url: 'https://docs.example.com/api/agent/get-agent-job',
        content: 'This endpoint is deprecated. Use [the newer version](/api/agent/v2/get-agent-job) instead.\n\nIt returns a job.',
      },
      {
        id: 2,
        title: 'Get agent job',
        url: 'https://docs.example.com/api/agent/v2/get-agent-job',
        content: 'Returns the job and its status.',
      },
    ]
    expect(extractiveAnswer('is the v1 job endpoint deprecated?', deprecated).split('\n\n')[0]).toBe(
      'This endpoint is deprecated. Use [the newer version](/api/agent/v2/get-agent-job) instead. [1][2]',
    )
  })

  test('a question every word of which a page title holds ("custom 404 page") is answered from that page first', () => {
    const named: SourceBlock[] = [
      {
        id: 1,
        title: 'Custom 404 page',
        url: 'https://docs.example.com/customize/custom-404-page',
        content:
          'All missing pages suggest related pages based on the URL a reader asked for, and an agent finds the pages they were looking for.\n\nYou can customize the title and description of the error page.\n\nSet `redirect` to `false` to show the custom 404 page instead of sending every reader who lands on a missing page to your home page.',
      },
      { id: 2, title: 'Editor › Configurations', url: 'https://docs.example.com/editor/configurations', content: 'Set the site name.' },
      { id: 3, title: 'Custom scripts', url: 'https://docs.example.com/customize/custom-scripts', content: 'Add a script tag.' },
      {
        id: 4,
        title: 'Settings reference',
        url: 'https://docs.example.com/settings',
        content: 'Custom title for the 404 page. Custom description for the 404 page.',
      },
    ]
    const answer = extractiveAnswer('custom 404 page', named)
    expect(answer.split('\n\n')[0]).toMatch(/^Set `redirect` to `false` to show the custom 404 page .* \[1\]$/)
  })

  test("an overview's card (its title linked to the page, see page-blocks) cites the page it leads to", () => {
    const overview: SourceBlock[] = [
      {
        id: 1,
        title: 'Components overview',
        url: 'https://docs.example.com/components',
        content:
          '[Callouts](/components/callouts): Emphasize important information.\n\n[Prompt](/components/prompt): Display copyable AI prompts.',
      },
      { id: 2, title: 'Prompt', url: 'https://docs.example.com/components/prompt', content: 'Use the `Prompt` component.' },
    ]
    expect(extractiveAnswer('show a copyable ai prompt', overview)).toContain('Display copyable AI prompts. [1][2]')
  })

  test('a word the sources hold only in code is not one they speak of, unless the question writes it as code', () => {
    const tools: SourceBlock[] = [
      {
        id: 1,
        title: 'MCP server › Tools',
        url: 'https://docs.example.com/ai/mcp#tools',
        content:
          '- `query_docs` — Browse the docs file tree (`ls`, `cat`, `grep`). Good for reading a specific page.\n\nGive each tool a clear name.',
      },
      {
        id: 2,
        title: 'Code blocks',
        url: 'https://docs.example.com/create/code',
        content:
          'Hover over a name to see its type.\n\n```ts\ntype Pet = "cat" | "dog"\nconst adopt = (name: string, pet: Pet) => name\n```',
      },
    ]
    // "cat" is a command and a value in these sources: a question about the animal is not answered by them.
    for (const question of ['What is a good name for a cat?', 'How do I feed my dog?']) {
      expect(isDecline(extractiveAnswer(question, tools)), question).toBe(true)
    }
    // Written as code, it asks about the command.
    expect(extractiveAnswer('which tool runs `cat`?', tools)).toContain('Browse the docs file tree')
    // One passage holding the question's other words says the docs speak of it, as with a word they never use.
    const operators: SourceBlock[] = [
      {
        id: 1,
        title: 'Targeting rules › Operators',
        url: 'https://docs.example.com/targeting#operators',
        content: '| Operator | Example |\n| --- | --- |\n| `matches regex` | `agent matches regex .*Firefox.*` |',
      },
    ]
    expect(isDecline(extractiveAnswer('what regex flavor do targeting rules use', operators))).toBe(false)
  })

  test('a word the sources hold only inside a longer name (GitBook, CloudFront) is not one they speak of', () => {
    const migration: SourceBlock[] = [
      {
        id: 1,
        title: 'Migrate from GitBook',
        url: 'https://docs.example.com/migration/gitbook',
        content:
          'GitBook scopes a redirect in its configuration file to one section, while a Mintlify redirect applies to the published site.\n\nGitBook `SUMMARY.md`: Linked item with children becomes a group with nested pages.',
      },
      {
        id: 2,
        title: 'Images',
        url: 'https://docs.example.com/guides/media',
        content:
          'Use WebP for photographs or images where file size matters.\n\nEvery screenshot you publish is a commitment to update it when the interface changes.',
      },
      {
        id: 3,
        title: 'Editor',
        url: 'https://docs.example.com/editor',
        content: 'Press / to insert components, images, or other content.',
      },
    ]
    // "book" is half of a product's name here; the reader's book is something else.
    expect(isDecline(extractiveAnswer("How do I get a children's picture book published by a small press?", migration))).toBe(true)
    // The name itself, asked about, is a word the sources say.
    expect(extractiveAnswer('what does a linked item with children become when I migrate from GitBook?', migration)).toContain(
      'Linked item with children',
    )
  })

  test("asked on a page that holds half the question's own words or more, in sentences or code, the page's passages answer", () => {
    const job: SourceBlock = {
      id: 1,
      title: 'Get agent job',
      url: 'https://docs.example.com/api/agent/v2/get-agent-job',
      content: [
        'Poll this endpoint to track the progress of an agent job. The `status` field transitions through `active` → `completed` or `failed`.',
        'After the agent creates a pull request, the `prLink` field contains the link.',
      ].join('\n\n'),
    }
    const other: SourceBlock = {
      id: 2,
      title: 'Create agent job',
      url: 'https://docs.example.com/api/agent/v2/create-agent-job',
      content: 'Start an agent job with a prompt. The agent edits files and opens a pull request.',
    }
    const asked = "what statuses does it go through, and where do I find the PR once it's made?"
    const answer = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Get agent job') }, [job, other])
    expect(answer).toContain('The `status` field transitions through `active` → `completed` or `failed`. [1]')
    expect(answer).toContain('the `prLink` field contains the link. [1]')
    // Asked on no page, the question's words are the reader's, and the docs do not put them together.
    expect(isDecline(extractiveAnswer(asked, [job, other]))).toBe(true)
    // "Return" is not the page's word: half of them are enough.
    const returns = 'what statuses can this return, and where do I find the PR once it is done?'
    expect(extractiveAnswer({ question: returns, standalone: onPage(returns, 'Get agent job') }, [job, other])).toContain('`prLink`')
    // A word the docs never use makes the question the reader's, whatever the page holds.
    const roles: SourceBlock = {
      id: 1,
      title: 'Roles',
      url: 'https://docs.example.com/account/roles',
      content: 'Invitations expire after 7 days.\n\nAdmins can customize the roles of their team.\n\nEvery plan includes the Admin role.',
    }
    const onRoles = (question: string, unknownWords: string[] = []) =>
      extractiveAnswer({ question, unknownWords, standalone: onPage(question, 'Roles') }, [roles, { ...other, id: 2 }])
    expect(isDecline(onRoles('how do I customize these wedding invitations?', ['wedding']))).toBe(true)
    // Nor does a question that does not point at the page ("this", "these", "it") lean on what it holds.
    expect(isDecline(onRoles('good beginner plan for running invitations'))).toBe(true)
  })

  test('reads the verb of what a question asks to do, which weighs less for coverage when no quoted passage holds it', () => {
    const stemOf = (word: string) => contentTerms(word)[0]
    expect(verbOf('draw a sequence diagram in a page')).toBe(stemOf('draw'))
    expect(verbOf('How do I draw a sequence diagram?')).toBe(stemOf('draw'))
    expect(verbOf('how to embed a video')).toBe(stemOf('embed'))
    expect(verbOf('can I change the port?')).toBe(stemOf('change'))
    expect(verbOf('I want to hide a page')).toBe(stemOf('hide'))
    // A question about something, not asking to do anything, has none.
    expect(verbOf('what is a sequence diagram?')).toBeUndefined()
    expect(verbOf('which formats are supported?')).toBeUndefined()
  })

  test('uses the standalone question of a follow-up instead of the bare last message', async () => {
    const text = await ask('and its limit?', sources, { standalone: 'How many attributes can a context have? and its limit?' }).text
    expect(text).toContain('100 attributes')
  })

  test('stops when aborted', async () => {
    let total = 0
    for await (const _ of ask('How do I start a percentage rollout?').textStream) total++
    const abort = new AbortController()
    const result = streamText({
      model: offlineAnswerModel(),
      instructions: systemPrompt({ docsName: 'Lumen Flags', sources }),
      prompt: 'How do I start a percentage rollout?',
      abortSignal: abort.signal,
    })
    let deltas = 0
    for await (const part of result.stream) {
      if (part.type === 'text-delta' && ++deltas === 2) abort.abort()
    }
    // streamText reads a little ahead; what matters is that the model stopped well before its end.
    expect(deltas).toBeLessThan(total - 2)
  })
})

test('source blocks survive the round trip through the prompt, including quotes and a literal </source>', () => {
  const tricky: SourceBlock[] = [
    {
      id: 1,
      title: 'Say "hi" & <b>',
      url: 'https://x.test/a?b="c"',
      content: 'Text with </source> inside.\nSecond line.',
    },
  ]
  expect(parseSourceBlocks(systemPrompt({ docsName: 'X', sources: tricky }))).toEqual(tricky)
})

describe('answers that read well', () => {
  const steps: SourceBlock = {
    id: 1,
    title: 'Quickstart',
    url: 'https://docs.example.com/quickstart',
    content: [
      '## Create a flag',
      '',
      'Create a flag',
      '',
      'In the Lumen Flags dashboard, open your project and click **Create flag**.',
      '',
      'Enter one of these keys:',
      '',
      '- `new-checkout` for the checkout.',
      '- `dark-mode` for the theme.',
    ].join('\n'),
  }

  test('a step title leads its sentence instead of running into it; a sentence ending in ":" brings its list', () => {
    const text = extractiveAnswer('How do I create a flag in the dashboard?', [steps])
    expect(text).toContain('Create a flag: In the Lumen Flags dashboard, open your project and click **Create flag**. [1]')
    expect(text).not.toMatch(/Create a flag In the/)
    expect(extractiveAnswer('which keys can I enter?', [steps])).toContain(
      'Enter one of these keys:\n- `new-checkout` for the checkout.\n- `dark-mode` for the theme. [1]',
    )
  })

  test('a question asked on a page counts the page among its words; the same sentence twice is quoted once', () => {
    const fonts: SourceBlock = {
      id: 1,
      title: 'Fonts',
      url: 'https://docs.example.com/customize/fonts',
      content: 'Set a custom font for your entire site.\n\nSet a custom font for your entire site.\n\nFonts load from Google Fonts.',
    }
    const alone = extractiveAnswer('how do I use my own?', [fonts])
    const onFonts = extractiveAnswer({ question: 'how do I use my own?', standalone: onPage('how do I use my own?', 'Fonts') }, [fonts])
    expect(onFonts.startsWith('Set a custom font for your entire site. [1]')).toBe(true)
    expect(onFonts.split('Set a custom font').length).toBe(2)
    expect(isDecline(alone) || alone.startsWith('Set a custom font')).toBe(true)
  })

  test("asked about the reader's page, the answer quotes that page, not another that only shares the question's words", () => {
    const notFound: SourceBlock = {
      id: 1,
      title: 'Custom 404 page',
      url: 'https://docs.example.com/customize/custom-404-page',
      content: 'You can customize the title and description of the 404 page.\n\nConfigure it in the `errors.404` section of `docs.json`.',
    }
    const automations: SourceBlock = {
      id: 2,
      title: 'Automations',
      url: 'https://docs.example.com/automations',
      content: 'Click **Turn on automation** to enable an automation.',
    }
    const asked = 'how do I turn this on?'
    expect(extractiveAnswer(asked, [notFound, automations])).toContain('Turn on automation')
    const on404 = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Custom 404 page') }, [notFound, automations])
    expect(on404).toMatch(/^You can customize the title and description of the 404 page\. .*\[1\]$/)
    expect(on404).not.toContain('automation')
    // Another page that speaks of the page's subject is still quoted.
    const errors: SourceBlock = {
      ...automations,
      title: 'Errors',
      content: 'To turn on the custom 404 page, set `errors.404.redirect` to false.',
    }
    const withErrors = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Custom 404 page') }, [notFound, errors])
    expect(withErrors).toContain('To turn on the custom 404 page, set `errors.404.redirect` to false. [2]')
  })

  test('a list brought along by its sentence stops before an item that introduces a block of its own', () => {
    const seo: SourceBlock[] = [
      {
        id: 1,
        title: 'SEO',
        url: 'https://docs.example.com/seo',
        content: [
          'When you hide the whole site from search engines, your site:',
          '',
          '- Renders every page with `noindex` tags.',
          '- Returns an empty `sitemap.xml`.',
          '- Serves a disallow `robots.txt`:',
          '',
          '```text',
          'User-agent: *',
          'Disallow: /',
          '```',
        ].join('\n'),
      },
    ]
    const answer = extractiveAnswer('hide the whole site from search engines', seo)
    expect(answer).toContain('- Returns an empty `sitemap.xml`.')
    expect(answer).not.toMatch(/:\s*(\[\d+\])?$/)
  })

  test("on a page, another source of the same kind ('Python SDK' beside 'Go SDK') does not answer for it", () => {
    const sdk = (id: number, language: string, install: string): SourceBlock => ({
      id,
      title: `${language} SDK`,
      url: `https://docs.example.com/sdks/${language.toLowerCase()}`,
      content: `Use the ${language} SDK in your services.\n\n## Install\n\n\`\`\`bash\n${install}\n\`\`\``,
    })
    const sources = [sdk(1, 'Go', 'go get example.com/flags'), sdk(2, 'Python', 'pip install flags # install the sdk')]
    const asked = 'how do I install it?'
    const onGo = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Go SDK') }, sources)
    expect(onGo).toContain('go get example.com/flags')
    expect(onGo).not.toContain('pip install')
  })

  test('declining answers are recognised however a model writes the phrase', () => {
    expect(isDecline(`${DECLINE} I found nothing about "cake".`)).toBe(true)
    expect(isDecline('**The docs do not cover this question.** The closest page is [Flags](/flags).')).toBe(true)
    expect(isDecline('> the docs do not cover this question')).toBe(true)
    expect(isDecline('The docs cover this question: flags are on by default. [1]')).toBe(false)
  })
})

describe('asked on a page with a section on what is asked', () => {
  const mcp: SourceBlock = {
    id: 1,
    title: 'Admin MCP server',
    url: 'https://docs.example.com/ai/admin-mcp',
    content: [
      'The admin MCP server gives AI tools write access to your content and settings. Use it to update content and access your dashboard.',
      '## Connect a client',
      'Add the server URL to your AI tool and complete the OAuth login.',
      '## Disconnect or revoke access',
      'Revoke the OAuth grant under **Settings → Connected apps**: active session tokens stop working at once.',
    ].join('\n\n'),
  }
  const other: SourceBlock = {
    id: 2,
    title: 'Search MCP server',
    url: 'https://docs.example.com/ai/search-mcp',
    content: 'The search MCP server lets AI tools read your docs. Client credentials grant read access.',
  }
  const asked = 'How do I cut off its access later if we stop using it?'

  test("quotes that section first, where the reader's other words (cut, later, stop) declined it", () => {
    const answer = extractiveAnswer({ question: asked, standalone: onPage(asked, 'Admin MCP server') }, [mcp, other])
    expect(answer).toMatch(
      /^Revoke the OAuth grant under \*\*Settings → Connected apps\*\*: active session tokens stop working at once\. \[1\]/,
    )
    // Not asked on the page, the same words are not enough.
    expect(isDecline(extractiveAnswer(asked, [mcp, other]))).toBe(true)
  })

  test("so does a field's label (its name and type), which names what the passage after it is about", () => {
    const playground: SourceBlock = {
      id: 1,
      title: 'API playground',
      url: 'https://docs.example.com/api-playground',
      content: [
        'The playground lets readers call your API from the docs.',
        'display string',
        'How the playground shows: `interactive`, `simple` or `none`.',
        'proxy boolean',
        'Whether to pass requests through the proxy server. Defaults to `true`.',
        'Set it to `false` when your API accepts requests straight from the browser.',
      ].join('\n\n'),
    }
    const question = 'when should I not bother with the proxy here?'
    const answer = extractiveAnswer({ question, standalone: onPage(question, 'API playground') }, [playground, other])
    expect(answer).toMatch(/^proxy boolean: Whether to pass requests through the proxy server\. Defaults to `true`\. \[1\]/)
    expect(isDecline(extractiveAnswer(question, [playground, other]))).toBe(true)
  })

  test('the reader\'s "show up", "right-hand" and "phone" are the docs\' "appear", "right" and "mobile"', () => {
    const examples: SourceBlock = {
      id: 1,
      title: 'Examples',
      url: 'https://docs.example.com/components/examples',
      content: [
        'Display code examples in the right sidebar panel on desktop devices.',
        'On mobile devices, request and response examples display as regular code blocks that readers scroll past.',
      ].join('\n\n'),
    }
    const other: SourceBlock = {
      id: 2,
      title: 'Panel',
      url: 'https://docs.example.com/components/panel',
      content: 'Customize the right side panel of a page.',
    }
    const question = 'Does this still show up in the right-hand panel on phones?'
    const answer = extractiveAnswer({ question, standalone: onPage(question, 'Examples') }, [examples, other])
    expect(answer).toMatch(/^On mobile devices, request and response examples display as regular code blocks/)
    const analytics: SourceBlock = {
      id: 1,
      title: 'Analytics',
      url: 'https://docs.example.com/analytics',
      content: 'The analytics page shows how visitors use your docs.\n\nAnalytics data typically appears within a few minutes of a visit.',
    }
    expect(extractiveAnswer('how soon does visitor data show up in analytics?', [analytics])).toMatch(
      /data typically appears within a few minutes/,
    )
  })

  test('a question on the page that no section heading names is declined as before', () => {
    const offTopic = 'is it bad to run the dishwasher half full?'
    expect(isDecline(extractiveAnswer({ question: offTopic, standalone: onPage(offTopic, 'Admin MCP server') }, [mcp, other]))).toBe(true)
  })

  test("what happened to the reader's thing (a verb in -ed after it) is not part of its name", () => {
    const proxy: SourceBlock = {
      id: 1,
      title: 'Reverse proxy',
      url: 'https://docs.example.com/deploy/reverse-proxy',
      content: [
        'Configure a custom reverse proxy with nginx to serve your docs at a subpath.',
        '## Routing',
        'Your proxy must forward all HTTP methods on documentation paths. A proxy that only allows `GET` requests silently breaks the analytics in your dashboard.',
        '## Example nginx configuration',
        'Use this configuration as a starting point.',
      ].join('\n\n'),
    }
    const other: SourceBlock = {
      id: 2,
      title: 'Analytics streaming',
      url: 'https://docs.example.com/analytics/streaming',
      content: 'Stream analytics events to your own storage.',
    }
    const question = 'Analytics in our dashboard flatlined right after we put this nginx setup in place'
    const answer = extractiveAnswer({ question, standalone: onPage(question, 'Reverse proxy'), unknownWords: ['flatlined'] }, [
      proxy,
      other,
    ])
    expect(isDecline(answer)).toBe(false)
    expect(answer).toContain('A proxy that only allows `GET` requests silently breaks the analytics in your dashboard.')
    // A thing of the reader's the docs never name still makes the question theirs.
    const toilet = {
      question: 'our toilet flapper leaked after we replaced it, what should we check?',
      unknownWords: ['toilet', 'flapper'],
    }
    expect(isDecline(extractiveAnswer(toilet, [proxy, other]))).toBe(true)
  })

  test("a section's opening sentence brings its fields along, and a field's later sentence its name", () => {
    const overview: SourceBlock = {
      id: 1,
      title: 'API overview',
      url: 'https://docs.example.com/api/overview',
      content: [
        '## Pagination',
        'List endpoints use **cursor-based pagination**.',
        'limit integer',
        'Number of items to return, from 1 to 200.',
        'cursor string',
        'The `next_cursor` value from the previous response. Omit it for the first page.',
        'next_cursor string | null',
        'Pass this as `cursor` to get the next page. `null` when there are no more results.',
      ].join('\n\n'),
    }
    expect(extractiveAnswer('how does pagination work?', [overview])).toBe(
      [
        'List endpoints use **cursor-based pagination**.',
        '- limit integer: Number of items to return, from 1 to 200.',
        '- cursor string: The `next_cursor` value from the previous response. Omit it for the first page.',
        '- next_cursor string | null: Pass this as `cursor` to get the next page. `null` when there are no more results. [1]',
      ].join('\n'),
    )
    // Never a field's description without the field it describes.
    expect(extractiveAnswer('what happens when there are no more results?', [overview])).toMatch(
      /next_cursor string \| null: Pass this as `cursor` to get the next page\. `null` when there are no more results\./,
    )
  })

  test("a formula in a variable that no source writes is someone's algebra, whatever words the docs share", () => {
    const writing: SourceBlock = {
      id: 1,
      title: 'Support content',
      url: 'https://docs.example.com/guides/support',
      content: 'Support content should help customers solve problems quickly.\n\nUse steps to show a series of sequential actions.',
    }
    expect(isDecline(extractiveAnswer('help me solve 3x + 7 = 22 and show the steps', [writing]))).toBe(true)
    expect(isDecline(extractiveAnswer('how do I show the steps to solve problems', [writing]))).toBe(false)
    const scoring: SourceBlock = {
      id: 1,
      title: 'Scoring',
      url: 'https://docs.example.com/concepts/scoring',
      content: 'A rule scores each result as 2x + 1, where x is the number of matches.',
    }
    expect(extractiveAnswer('why does a result score 2x + 1?', [scoring])).toMatch(/^A rule scores each result as 2x \+ 1/)
  })
})
