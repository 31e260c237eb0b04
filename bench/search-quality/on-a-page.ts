import { searchQuestion } from '../../server/search/question.ts'
import type { Corpus } from '../../server/search/types.ts'
import type { Question } from './evaluate.ts'

export interface OnAPage {
  /** Questions that had a page beside their expected one to be asked on. */
  questions: number
  /** Expected page in the first 3 pages, asked on no page. */
  alone: number
  /** The same, asked on the page beside. */
  beside: number
  /** How many were read as leaning on the page they were asked on. */
  leaning: number
  /** Questions found alone and lost beside, with the page they were asked on. */
  lost: Array<{ question: string; page: string }>
}

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')))

/** The pages a reader can be on (not hidden), in path order. */
export const listedPages = (corpus: Corpus) =>
  corpus
    .pages()
    .filter((page) => !page.hidden)
    .map((page) => page.path)
    .sort()

/** The page beside a question's first expected page: the next in its folder, or the one before when it is the last. */
export function pageBeside(listed: string[], expected: string[]): string | undefined {
  const first = expected[0]!
  const neighbours = listed.filter((path) => folderOf(path) === folderOf(first) && !expected.includes(path))
  return neighbours.find((path) => path > first) ?? neighbours.at(-1)
}

/**
 * Questions that do not lean on a page, asked as the widget asks them: on a page, here the one beside the expected
 * page (see pageBeside). A neighbour shares the most words with
 * the question, so it is where a page could hide a better one elsewhere. Counts the expected page in the first 3
 * pages, through the assistant's own search (`searchQuestion`), asked there and asked on no page.
 */
export async function askedBeside(corpus: Corpus, questions: Question[]): Promise<OnAPage> {
  const listed = listedPages(corpus)
  const result: OnAPage = { questions: 0, alone: 0, beside: 0, leaning: 0, lost: [] }
  for (const { question, pages } of questions) {
    const expected = new Set(pages)
    const page = pageBeside(listed, pages)
    if (page === undefined) continue
    const firstThree = async (currentPath?: string) => {
      const found = await searchQuestion(corpus, { turns: [{ role: 'user', text: question }], pageSize: 5, currentPath })
      const ranked = [...new Set(found.hits.map((hit) => hit.section.path))]
      return { found: ranked.slice(0, 3).some((path) => expected.has(path)), leaning: found.leansOn === 'page' }
    }
    const alone = await firstThree()
    const beside = await firstThree(`/${page}`)
    result.questions++
    if (alone.found) result.alone++
    if (beside.found) result.beside++
    if (beside.leaning) result.leaning++
    if (alone.found && !beside.found) result.lost.push({ question, page })
  }
  return result
}
