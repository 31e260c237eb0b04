import type { DocentConfig } from '../config.ts'
import type { KeyRecord } from '../store/types.ts'
import { clientIp, limitKeyOfIp } from './client-ip.ts'
import type { RateRule } from './rate-limit.ts'

/**
 * What a request spends: an answer (a model call), a read of the docs (search, page, MCP, private llms.txt), a
 * rating, or the widget's analytics events (settled searches, clicks; counted like reads of the docs, apart from them). Each has its own per-key and per-IP budgets (config `limits`), and all share the organization's hour; the
 * per-IP hours sit well under the organization's, so no single client can spend it for everyone. Apart from them,
 * `publicFiles`: the files of public docs (see PUBLIC_FILES_PER_DOCS_READ).
 */
export type Quota = 'answer' | 'docs' | 'feedback' | 'events' | 'publicFiles'

/**
 * The per-IP hour of the files of public docs (`llms.txt`, `llms-full.txt`, `<page>.md`, the site's HTML pages), as a multiple of
 * `docsIpPerHour`. Crawlers and AI tools fetch those files the way browsers fetch pages, a whole site at a time, and
 * they are served from a text kept per revision, so they count neither on the docs budget nor on the organization's
 * hour (a crawler would otherwise spend the hour the assistant answers on, for every reader). They keep a per-IP hour
 * of their own, so one client cannot flood the server with them; none per project, which a crowd of crawlers would
 * spend for everyone.
 */
export const PUBLIC_FILES_PER_DOCS_READ = 10

export interface QuotaSubject {
  organization: string
  /** The assistant key used; null for a keyless read of public docs (then only the IP and organization count). */
  key: KeyRecord | null
}

export function quotaRules(config: DocentConfig, quota: Quota, subject: QuotaSubject): RateRule[] {
  const { limits, trustProxy } = config
  const perKey = (name: string, limit: number): RateRule[] =>
    subject.key ? [{ name, limit, window: 'month', key: () => subject.key!.id }] : []
  const perIp = (name: string, limit: number, window: RateRule['window']): RateRule => ({
    name,
    limit,
    window,
    key: (c) => limitKeyOfIp(clientIp(c, trustProxy)),
  })
  const organization: RateRule = { name: 'org-hour', limit: limits.organizationPerHour, window: 'hour', key: () => subject.organization }
  switch (quota) {
    case 'answer':
      return [
        ...perKey('key-month', limits.assistantKeyPerMonth),
        organization,
        perIp('ip-day', limits.ipPerDay, 'day'),
        perIp('ip-hour', limits.assistantIpPerHour, 'hour'),
      ]
    case 'docs':
      return [...perKey('docs-key-month', limits.docsKeyPerMonth), organization, perIp('docs-ip-hour', limits.docsIpPerHour, 'hour')]
    case 'events':
      return [...perKey('events-key-month', limits.docsKeyPerMonth), organization, perIp('events-ip-hour', limits.docsIpPerHour, 'hour')]
    case 'publicFiles':
      return [perIp('files-ip-hour', limits.docsIpPerHour * PUBLIC_FILES_PER_DOCS_READ, 'hour')]
    case 'feedback':
      return [
        ...perKey('feedback-key-month', limits.feedbackKeyPerMonth),
        organization,
        perIp('feedback-ip-hour', limits.feedbackIpPerHour, 'hour'),
      ]
  }
}
