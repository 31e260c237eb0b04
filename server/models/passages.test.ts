import { expect, test } from 'vitest'
import { splitPassages } from './passages.ts'
import { contentTerms } from '../search/terms.ts'

test('markdown splits into sentences, whole list items, table rows with their column names, and short code blocks', () => {
  const markdown = [
    'Create one client per process. Reuse it everywhere!',
    '',
    '## Heading lines are not passages',
    '',
    '- **`@lumenflags/node`** (v4) — for servers. Uses a server-side SDK key.',
    '',
    '| Action | Owner | Editor |',
    '| --- | --- | --- |',
    '| Delete flags | ✓ | — |',
    '',
    '```bash',
    'npm install @lumenflags/node',
    '```',
    '',
    '```text',
    ...Array.from({ length: 13 }, (_, i) => `line ${i}`),
    '```',
    '<Note>',
    'Text inside a component counts.',
    '</Note>',
  ].join('\n')
  expect(splitPassages(1, markdown).map((p) => [p.kind, p.text])).toEqual([
    ['text', 'Create one client per process.'],
    ['text', 'Reuse it everywhere!'],
    ['item', '**`@lumenflags/node`** (v4) — for servers. Uses a server-side SDK key.'],
    ['item', 'Action: Delete flags; Owner: ✓; Editor: —'],
    ['code', '```bash\nnpm install @lumenflags/node\n```'],
    ['text', 'Text inside a component counts.'],
  ])
})

test('a markdown example inside a longer fence is one code block, not code then prose', () => {
  const markdown = [
    'Users can hover to see types.',
    '',
    '````mdx Format',
    '```ts twoslash',
    'type Pet = "cat" | "dog"',
    '```',
    '````',
    '',
    'Next sentence.',
  ].join('\n')
  expect(splitPassages(1, markdown).map((p) => [p.kind, p.text])).toEqual([
    ['text', 'Users can hover to see types.'],
    ['code', '````mdx Format\n```ts twoslash\ntype Pet = "cat" | "dog"\n```\n````'],
    ['text', 'Next sentence.'],
  ])
})

test('an example or a default stays with the sentence it illustrates', () => {
  const markdown = 'Path to your logo file. Include the file extension. Example: `/logo/light.svg`. Defaults to `true`. Examples follow.'
  expect(splitPassages(1, markdown).map((p) => p.text)).toEqual([
    'Path to your logo file.',
    'Include the file extension. Example: `/logo/light.svg`. Defaults to `true`.',
    'Examples follow.',
  ])
})

test("a field's values stay with the sentence that names the field; a sentence that only begins alike stands alone", () => {
  const markdown = [
    'titleSize string',
    '',
    'The size of the step titles. One of `p`, `h2`, `h3`, and `h4`. Options: `compact` or `table`.',
    '',
    'Pick a layout. Valid values are `"copy"` and `"cursor"`. One of the core principles is reuse.',
  ].join('\n')
  expect(splitPassages(1, markdown).map((p) => p.text)).toEqual([
    'titleSize string: The size of the step titles. One of `p`, `h2`, `h3`, and `h4`. Options: `compact` or `table`.',
    'Pick a layout. Valid values are `"copy"` and `"cursor"`.',
    'One of the core principles is reuse.',
  ])
})

test("a label or heading loses its emphasis, not an identifier's underscores", () => {
  const markdown = [
    '## The __v2__ API',
    '',
    'context_kind string',
    '',
    'The context kind. Default: `user`.',
    '',
    '**_Beta_ per_page**',
    '',
    'Page size.',
  ].join('\n')
  expect(splitPassages(1, markdown).map((p) => [p.heading, p.text])).toEqual([
    ['The v2 API', 'context_kind string: The context kind. Default: `user`.'],
    ['The v2 API', 'Beta per_page: Page size.'],
  ])
})

test("a question stays with what answers it: an FAQ entry's question with its answer, a sentence's with the next", () => {
  const faq = [
    'How many top-level sections should I have?',
    '',
    'Keep them to seven or fewer. Prefer depth.',
    '',
    'Can I use a custom domain?',
    '',
    '- Yes, on every plan.',
    '',
    'Working with an AI tool? Install the skill. Then run it.',
    '',
    'Why does this matter? And what if it does not?',
    '',
    'Did you know the API is versioned? It is.',
  ].join('\n')
  expect(splitPassages(1, faq).map((p) => p.text)).toEqual([
    'How many top-level sections should I have? Keep them to seven or fewer.',
    'Prefer depth.',
    'Can I use a custom domain? Yes, on every plan.',
    'Working with an AI tool? Install the skill.',
    'Then run it.',
    // Two questions are not an FAQ entry's one: they stay a paragraph of their own.
    'Why does this matter? And what if it does not?',
    'Did you know the API is versioned? It is.',
  ])
})

test("a problem's title (an accordion's, no end punctuation) stays with what answers it, as an FAQ entry's question does", () => {
  const troubleshooting = [
    'Error: Could not load the "sharp" module using the darwin-arm64 runtime',
    '',
    'This may be due to an outdated version of Node.js. Try the following:',
    '',
    '1. Upgrade to Node.js v20.17.0+.',
    '',
    'The local preview does not look the same as my docs do on the web',
    '',
    '```bash',
    'mint update',
    '```',
    '',
    'Set up your project',
    '',
    'Run the command.',
    '',
    '**Type:** `"system"` | `"dark"` | string (Shiki theme name) | object',
    '**Default:** `"system"`',
    '',
    'When an object:',
  ].join('\n')
  const passages = splitPassages(1, troubleshooting)
  expect(passages.map((p) => p.text)).toEqual([
    'Error: Could not load the "sharp" module using the darwin-arm64 runtime: This may be due to an outdated version of Node.js.',
    'Try the following:',
    'Upgrade to Node.js v20.17.0+.',
    // Nothing but code follows: the title is still what the docs say there.
    'The local preview does not look the same as my docs do on the web',
    '```bash\nmint update\n```',
    // A short one is a step's label, as before.
    'Set up your project: Run the command.',
    // A field's type and default are not a title, whatever their length.
    '**Type:** `"system"` | `"dark"` | string (Shiki theme name) | object **Default:** `"system"`',
    'When an object:',
  ])
  expect(passages[0]!.answers).toBe('Error: Could not load the "sharp" module using the darwin-arm64 runtime')
  expect(passages[5]!.label).toBe('Set up your project')
})

test('content terms drop stopwords and question framing, stem plurals, keep single digits', () => {
  expect(contentTerms('What does exit code 6 mean for my rollouts?')).toEqual(['exit', 'code', '6', 'rollout'])
  expect(contentTerms('How are targeting rules configured?').sort()).toEqual(contentTerms('configure the target rule').sort())
  expect(contentTerms('processes policies accesses')).toEqual(contentTerms('process policy access'))
  // "another" names nothing, as "other" does not: "can I put one inside another?" asks about nesting.
  expect(contentTerms('can I put one inside another?')).toEqual(contentTerms('put inside'))
})

test('a table cell may hold an escaped pipe: the row keeps its columns', () => {
  const markdown = '| Command | Description |\n| --- | --- |\n| `lumen completion bash\\|zsh\\|fish` | Print a shell completion script. |'
  expect(splitPassages(1, markdown).map((p) => p.text)).toEqual([
    'Command: `lumen completion bash|zsh|fish`; Description: Print a shell completion script.',
  ])
})
