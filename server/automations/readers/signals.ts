import { NOT_COVERED } from '../../models/extractive-answer.ts'
import type { Store } from '../../store/types.ts'

/**
 * What readers told the docs team, as "fill gaps" and "improve from feedback" read it. The analytics store (gaps
 * clustered from unanswered turns, feedback with review statuses) is what this is meant to be backed by; until it is,
 * `storeReaderSignals` reads the same facts from assistant threads.
 */
export interface ReaderSignals {
  /** Questions the docs did not answer, grouped (biggest first), asked since `since`. */
  listOpenGaps(projectId: string, options: { since: Date; limit: number }): Promise<ReaderGap[]>
  /** Readers' comments (and thumbs down with no comment) on answers and pages, since `since`, oldest first. */
  listFeedback(projectId: string, options: { since: Date; limit: number }): Promise<ReaderFeedback[]>
}

export interface ReaderGap {
  id: string
  title: string
  questions: Array<{ query: string; count: number }>
  /** Pages readers were on when they asked. */
  pages: string[]
  /** The sections that came nearest to an answer. */
  closest: Array<{ title: string; url: string }>
}

export interface ReaderFeedback {
  id: string
  /** The docs page it concerns (the rated answer's first source), when known. */
  path: string | null
  comment: string | null
  helpful: boolean
  createdAt: Date
}

/** Threads read per call, newest first: a bound on the work a weekly automation does however busy the assistant is. */
const MAX_THREADS = 500
/** An answer that says so is unanswered: the offline model's fixed sentence, or the LLM's (see the assistant's system prompt). */
const UNANSWERED = /\b(does not|doesn't|do not|don't) cover\b/i

/**
 * Gaps and feedback from the store as it is today: turns whose answer says the docs do not cover the question, or
 * that a reader rated down, grouped by the question's words; feedback from ratings and comments on answers.
 */
export function storeReaderSignals(store: Store): ReaderSignals {
  return {
    async listOpenGaps(projectId, { since, limit }) {
      const gaps = new Map<string, ReaderGap & { count: number }>()
      for await (const turn of turnsSince(store, projectId, since)) {
        const unanswered = turn.answer.startsWith(NOT_COVERED) || UNANSWERED.test(turn.answer) || turn.rating === 'down'
        if (!unanswered) continue
        const key = questionKey(turn.question)
        if (!key) continue
        const gap = gaps.get(key) ?? {
          id: `gap_${key.slice(0, 60).replace(/ /g, '-')}`,
          title: turn.question,
          questions: [],
          pages: [],
          closest: [],
          count: 0,
        }
        gap.count++
        const asked = gap.questions.find((question) => question.query === turn.question)
        if (asked) asked.count++
        else gap.questions.push({ query: turn.question, count: 1 })
        for (const source of turn.sources) {
          if (!gap.closest.some((known) => known.url === source.url)) gap.closest.push({ title: source.title, url: source.url })
        }
        gaps.set(key, gap)
      }
      return [...gaps.values()]
        .sort((a, b) => b.count - a.count || a.title.localeCompare(b.title))
        .slice(0, limit)
        .map(({ count: _count, ...gap }) => {
          // The wording most asked names the gap; among equals, one written as a question, then the fullest.
          const questions = gap.questions.sort(
            (a, b) => b.count - a.count || Number(b.query.endsWith('?')) - Number(a.query.endsWith('?')) || b.query.length - a.query.length,
          )
          return { ...gap, title: questions[0]!.query, questions, closest: gap.closest.slice(0, 3) }
        })
    },
    async listFeedback(projectId, { since, limit }) {
      const feedback: ReaderFeedback[] = []
      for await (const turn of turnsSince(store, projectId, since)) {
        if (!turn.rating || (turn.rating === 'up' && !turn.comment)) continue
        feedback.push({
          id: `${turn.threadId}:${turn.messageId}`,
          path: turn.sources[0]?.path ?? null,
          comment: turn.comment ?? null,
          helpful: turn.rating === 'up',
          createdAt: turn.at,
        })
      }
      return feedback.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).slice(0, limit)
    },
  }
}

interface Turn {
  threadId: string
  messageId: string
  question: string
  answer: string
  sources: Array<{ title: string; path: string; url: string }>
  rating?: 'up' | 'down'
  comment?: string
  at: Date
}

/** Question-and-answer pairs of the threads updated since `since`, answered since then. */
async function* turnsSince(store: Store, projectId: string, since: Date): AsyncGenerator<Turn> {
  let cursor: string | undefined
  let read = 0
  while (read < MAX_THREADS) {
    const page = await store.listThreads(projectId, { limit: 50, cursor })
    for (const thread of page.items) {
      if (thread.updatedAt.getTime() < since.getTime() || ++read > MAX_THREADS) return
      const messages = await store.listMessages(thread.id)
      for (let i = 1; i < messages.length; i++) {
        const [question, answer] = [messages[i - 1]!, messages[i]!]
        if (question.role !== 'user' || answer.role !== 'assistant' || answer.createdAt.getTime() < since.getTime()) continue
        yield {
          threadId: thread.id,
          messageId: answer.id,
          question: question.content.trim().slice(0, 500),
          answer: answer.content.trim(),
          sources: (answer.sources ?? []).map((source) => ({ title: source.title, path: source.path, url: source.url })),
          rating: answer.feedback?.rating,
          comment: answer.feedback?.comment,
          at: answer.createdAt,
        }
      }
    }
    if (!page.nextCursor) return
    cursor = page.nextCursor
  }
}

/** A question's content words, sorted: paraphrases that only reorder or restate filler words land together. */
function questionKey(question: string): string {
  const words = question
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !FILLER.has(word))
  return [...new Set(words)].sort().join(' ')
}

const FILLER = new Set([
  'the',
  'and',
  'how',
  'what',
  'can',
  'does',
  'why',
  'when',
  'where',
  'which',
  'who',
  'for',
  'with',
  'you',
  'your',
  'are',
  'there',
  'way',
  'any',
  'use',
  'using',
  'get',
])
