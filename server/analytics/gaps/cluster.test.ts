import { describe, expect, test } from 'vitest'
import type { GapSignalRecord } from '../../store/types.ts'
import { absorb, gapOf, JOIN_THRESHOLD, nearestGap, resemblance } from './cluster.ts'
import { questionTerms } from './question-terms.ts'

// Weights as on a feature-flag docs site: "flag", "sdk" and "lumen" are everywhere, "helm" and "ruby" nowhere.
const common = new Set(['flag', 'sdk', 'lumen', 'use', 'set'])
const weight = (term: string) => (common.has(term) ? 0.1 : 3)
const page = (path: string) => ({ title: path, path, url: `/${path}` })
let n = 0
const signal = (query: string, pages: string[] = []): GapSignalRecord => ({
  id: `s${n++}`,
  projectId: 'p',
  at: new Date(Date.UTC(2026, 0, 1, 0, n)),
  kind: pages.length ? 'unanswered' : 'no_results',
  query,
  terms: questionTerms(query),
  sections: pages.map(page),
  pageUrl: null,
  gapId: null,
})
const gapFrom = (...signals: GapSignalRecord[]) => {
  const gap = gapOf(signals[0]!, `g${n++}`, new Date())
  for (const s of signals) absorb(gap, s, new Date())
  return gap
}

describe('gap clustering', () => {
  test('question terms drop the words every question has', () => {
    expect(questionTerms('How do I deploy the relay proxy on Kubernetes with Helm?')).toEqual([
      'deploy',
      'relay',
      'proxy',
      'kubernet',
      'helm',
    ])
    expect(questionTerms('Is there any documentation about it, please?')).toEqual([])
  })

  test('paraphrases of one question meet; questions that only land near the same pages do not', () => {
    const helm = gapFrom(signal('How do I deploy the relay proxy on Kubernetes with Helm?', ['sdks/go', 'guides/ci-cd']))
    expect(
      resemblance(signal('Is there a Helm chart for running the relay proxy in Kubernetes?', ['guides/ci-cd']), helm, weight),
    ).toBeGreaterThan(JOIN_THRESHOLD)
    expect(resemblance(signal('kubernetes helm install relay proxy'), helm, weight)).toBeGreaterThan(JOIN_THRESHOLD)
    const ruby = signal('Is there a Ruby SDK?', ['sdks/go', 'guides/ci-cd'])
    expect(resemblance(ruby, helm, weight)).toBeLessThan(JOIN_THRESHOLD)
    const phpGap = gapFrom(signal('Does Lumen have a PHP SDK?', ['sdks/overview']))
    expect(nearestGap(signal('Can I use Lumen from PHP?', ['cli/configuration']), [helm, phpGap], weight)?.id).toBe(phpGap.id)
    expect(nearestGap(ruby, [helm, phpGap], weight)).toBeNull()
  })

  test('a gap’s signature counts its questions’ terms and nearest sections, and widens its dates', () => {
    const a = signal('helm chart relay', ['guides/ci-cd', 'sdks/go'])
    const b = signal('helm relay proxy', ['guides/ci-cd'])
    const gap = gapFrom(a, b)
    expect(gap.memberCount).toBe(2)
    expect(gap.terms).toMatchObject({ helm: 2, relay: 2, chart: 1, proxy: 1 })
    expect(gap.sections.map((s) => [s.path, s.count])).toEqual([
      ['guides/ci-cd', 2],
      ['sdks/go', 1],
    ])
    expect([gap.firstSeenAt, gap.lastSeenAt]).toEqual([a.at, b.at])
  })
})
