import { describe, expect, it } from 'vitest'
import { escapeHtml, renderReviewPage } from './review-page.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('review page', () => {
  it('escapes everything that comes from the repository or the model', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
    const html = renderReviewPage({
      jobId: 'j1',
      title: '<img src=x onerror=alert(1)>',
      body: '</div><script>alert(2)</script>',
      branch: 'docent/x',
      base: 'main',
      updatedAt: null,
      files: [{ path: '<evil>.mdx', kind: 'modified', before: bytes('a\n'), after: bytes('<script>b</script>\n') }],
    })
    expect(html).not.toMatch(/<script>|<img/)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('<span class="add">+&lt;script&gt;b&lt;/script&gt;</span>')
    expect(html).toContain('&lt;evil&gt;.mdx')
  })

  it('shows binary files as changed without their bytes, and stops showing diffs on a huge change', () => {
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')
    const files = Array.from({ length: 10 }, (_, i) => ({ path: `p${i}.md`, kind: 'added' as const, before: null, after: bytes(big) }))
    const html = renderReviewPage({
      jobId: 'j2',
      title: 't',
      body: '',
      branch: 'b',
      base: 'main',
      updatedAt: null,
      files: [{ path: 'logo.png', kind: 'modified', before: new Uint8Array([0, 1, 2]), after: new Uint8Array([0, 3]) }, ...files],
    })
    expect(html).toContain('binary file changed')
    expect(html).toContain('11 files changed')
    expect(html).toContain('p9.md')
    expect(html).toContain('diff not shown')
    expect(html.split('+line 2999').length - 1).toBeLessThan(10)
  })
})
