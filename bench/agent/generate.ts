/** A generated docs repository: `docs.json` plus `sections × pages` MDX pages of ~1.5 KB of varied prose each. */
export function generateDocs(fileCount = 2000): Record<string, string> {
  let seed = 12345
  const next = () => (seed = (seed * 48271) % 2147483647)
  const words = [
    'flag',
    'rollout',
    'segment',
    'project',
    'environment',
    'audit',
    'key',
    'webhook',
    'SDK',
    'target',
    'rule',
    'percentage',
    'variant',
    'default',
    'the',
    'a',
    'with',
    'when',
    'every',
    'team',
  ]
  const sentence = () => {
    const length = 8 + (next() % 10)
    const text = Array.from({ length }, () => words[next() % words.length]).join(' ')
    return `${text[0]!.toUpperCase()}${text.slice(1)} ${next().toString(36)}.`
  }
  const files: Record<string, string> = {}
  const sections = Math.ceil(fileCount / 100)
  const navigation: Array<{ group: string; pages: string[] }> = []
  for (let s = 0; s < sections; s++) {
    const pages: string[] = []
    for (let p = 0; p < 100 && s * 100 + p < fileCount - 1; p++) {
      const slug = `section-${s}/page-${p}`
      pages.push(slug)
      const paragraphs = Array.from({ length: 4 }, () => Array.from({ length: 4 }, sentence).join(' '))
      files[`${slug}.mdx`] = `---\ntitle: Page ${s}.${p}\ndescription: ${sentence()}\n---\n\n# Page ${s}.${p}\n\n${paragraphs.join(
        '\n\n## Details\n\n',
      )}\n`
    }
    navigation.push({ group: `Section ${s}`, pages })
  }
  files['docs.json'] = `${JSON.stringify({ name: 'Bench docs', navigation }, null, 2)}\n`
  return files
}
