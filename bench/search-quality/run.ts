// Search quality: recall@5 and MRR@10 of real questions over demo/docs and the Mintlify corpus, for each index library.
// The Mintlify questions come in three sets: two tuned on (the second written after the first was tuned) and one held
// out (never looked at while tuning); each is judged by issue 18's bar.
// Each line also counts the questions whose first five pages hold one page in two languages (a translation of a listed page).
// `--misses` prints the tuning sets' questions whose page is not in the top 5.
// `node --import tsx bench/search-quality/run.ts [engine,engine]`
import { existsSync, readFileSync } from 'node:fs'
import { buildCorpus } from '../../server/search/corpus.ts'
import { loadDocsSite } from '../../server/search/docs-site.ts'
import { ENGINES } from '../../server/search/engines/all.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { evaluate, type Question } from './evaluate.ts'
import { askedBeside } from './on-a-page.ts'
import { reportTarget } from '../support.ts'

const MINTLIFY = '../shared/corpora/mintlify-docs'
/** Issue 18's bar for questions that do not lean on a page, on the Mintlify corpus. */
const TARGET = { recallAt5: 0.95, mrrAt10: 0.85 }
/**
 * Asked on a page beside the expected one (see askedBeside), the share of the questions found on no page that are found
 * there too. Issue 18: a page that the question does not lean on must not hide better pages elsewhere.
 */
const BESIDE_KEPT = 0.95

const read = (file: string) => JSON.parse(readFileSync(`bench/search-quality/${file}`, 'utf8')) as Question[]
const showMisses = process.argv.includes('--misses')
const only = process.argv
  .slice(2)
  .find((arg) => !arg.startsWith('--'))
  ?.split(',')
const engines = Object.entries(ENGINES).filter(([name]) => !only || only.includes(name))

const corpora = [
  { name: 'demo', directory: 'demo/docs', sets: [['questions', read('questions.json')]] as const, target: false },
  {
    name: 'mintlify',
    directory: MINTLIFY,
    sets: [
      ['tuning', read('mintlify-questions.json')],
      ['tuning 2', read('mintlify-questions-2.json')],
      // Twelve written before they were tried (2026-11-27); see bench/search-answers.
      ['tuning 3', read('mintlify-questions-3.json')],
      // Twenty-four written before they were tried (2026-11-28): recall@5 1.0, MRR@10 0.865 at first try. Two first
      // written for a hidden and a noindex page were replaced: the search leaves such pages out, as Mintlify does.
      ['tuning 4', read('mintlify-questions-4.json')],
      // Twenty-four on pages drawn at random, written before they were tried (2026-11-28): recall@5 0.917, MRR@10 0.757
      // at first try (two misses of vocabulary: "stop google from indexing" for search engines, "a pdf stored in my
      // repo" for static files). One expectation was short of a page and was completed after: the CLI's overview
      // (`cli/index`) answers "run the docs locally with the cli" ("Preview locally: run `mint dev`").
      ['tuning 5', read('mintlify-questions-5.json')],
      // Twenty on listed pages no set asked about (many of them API operation pages), written before they were tried
      // (2026-11-28): recall@5 0.750, MRR@10 0.607 at first try.
      ['tuning 6', read('mintlify-questions-6.json')],
      // Thirty, twenty on the last listed pages no set asked about and ten on pages drawn at random, written before
      // they were tried (2026-11-28): recall@5 0.867, MRR@10 0.703 at first try.
      ['tuning 7', read('mintlify-questions-7.json')],
      // Thirty on pages drawn at random (some asked about by other sets), in a reader's words rather than the titles',
      // written before they were tried (2026-11-28): recall@5 0.833, MRR@10 0.739 at first try.
      ['tuning 8', read('mintlify-questions-8.json')],
      // Thirty more on pages drawn at random (none of tuning 8's), in a reader's words, written before they were tried
      // and after this stop's fixes (2026-11-28): recall@5 0.867, MRR@10 0.691 at first try.
      ['tuning 9', read('mintlify-questions-9.json')],
      // Thirty more on pages drawn at random (none of tuning 7-9's), in a reader's words, written by a helper who had not
      // seen the search, before they were tried and after this stop's fixes (2026-11-28): recall@5 0.967, MRR@10 0.713
      // at first try.
      ['tuning 10', read('mintlify-questions-10.json')],
      // Thirty more on pages drawn at random (none of tuning 8-10's), written the same way after this stop's fixes
      // (2026-11-28): recall@5 0.933, MRR@10 0.788 at first try.
      ['tuning 11', read('mintlify-questions-11.json')],
      // Thirty more on pages drawn at random (none of tuning 9-11's), written the same way by a helper, after the
      // previous stop's fixes (2026-11-28): recall@5 0.900, MRR@10 0.866 at first try.
      ['tuning 12', read('mintlify-questions-12.json')],
      // The last English pages no set had used (the corpus has 262; 253 were taken), one question each, written the
      // same way (2026-11-28). An eighth, on a `hidden: true` page, was dropped: Mintlify keeps hidden pages out of site
      // search, and so do we. Five of the seven are pages outside the navigation. Recall@5 0.714, MRR@10 0.619 at first
      // try.
      ['tuning 13', read('mintlify-questions-13.json')],
      // Thirty on pages drawn at random (some asked about by other sets), in a reader's words, written by a helper who
      // had not seen the search, after this stop's fixes (2026-11-28): recall@5 1.000, MRR@10 0.906 at first try.
      ['tuning 14', read('mintlify-questions-14.json')],
      // Thirty on pages drawn at random (seeded shuf), in a reader's words, written by a helper who had not seen the
      // search, after the previous stop's fixes (2026-11-28): recall@5 0.867, MRR@10 0.788 at first try. One, on the
      // `noindex: true` changelog ("when did Bitbucket Cloud support ship?"), was dropped: Mintlify keeps such pages out
      // of site search, and so do we; without it, 0.897 and 0.815.
      ['tuning 15', read('mintlify-questions-15.json')],
      // Thirty more on pages drawn at random (seeded), a third short, a third one sentence, a third a story, written by a
      // helper who had not seen the code, after this stop's fixes (2026-11-28): recall@5 0.933, MRR@10 0.819 at first try.
      ['tuning 16', read('mintlify-questions-16.json')],
      // Thirty more the same way (seeded draw), after the previous stop's fixes (2026-11-29): recall@5 0.833, MRR@10 0.711
      // at first try.
      ['tuning 17', read('mintlify-questions-17.json')],
      // Thirty more the same way (a well-mixed seeded draw), after this stop's fixes (2026-11-29): recall@5 0.933, MRR@10
      // 0.834 at first try.
      ['tuning 18', read('mintlify-questions-18.json')],
      // Thirty more the same way, before this stop's fixes (2026-11-29): recall@5 1.000, MRR@10 0.844 at first try, on the
      // 27 kept. Three were dropped: their pages are hidden or noindex (or not a page: `.mintlify/`), which Mintlify keeps
      // out of search and the assistant, as Docent does.
      ['tuning 19', read('mintlify-questions-19.json')],
      // Thirty more the same way, on searchable pages only, after this stop's first fixes (2026-11-29): recall@5 0.933,
      // MRR@10 0.814 at first try.
      ['tuning 20', read('mintlify-questions-20.json')],
      // Thirty more the same way, near this stop's end (2026-11-29, 225024e): recall@5 0.933, MRR@10 0.797 at first try.
      ['tuning 21', read('mintlify-questions-21.json')],
      // Thirty more the same way, at the start of the next stop (2026-11-29, 8ada1de): recall@5 0.967, MRR@10 0.878 at first try.
      ['tuning 22', read('mintlify-questions-22.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, ab9cc40): recall@5 1.000,
      // MRR@10 0.823.
      ['tuning 23', read('mintlify-questions-23.json')],
      // Thirty more the same way, at the start of the next stop (2026-11-29, a990ee0): recall@5 0.833, MRR@10 0.652 at
      // first try; 0.867 / 0.710 after that stop's fixes. Harder than the rounds before: more of the reader's own words.
      ['tuning 24', read('mintlify-questions-24.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 59d3f48): recall@5 1.000,
      // MRR@10 0.808; 1.000 / 0.847 after.
      ['tuning 25', read('mintlify-questions-25.json')],
      // Thirty more the same way, at the start of the next stop (2026-11-29, 7b9dc86): recall@5 0.900, MRR@10 0.809 at
      // first try; 0.933 / 0.838 after that stop's fixes.
      ['tuning 26', read('mintlify-questions-26.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 292b660): recall@5 0.767,
      // MRR@10 0.628; 0.867 / 0.663 after. Longer stories than the rounds before, in the reader's words.
      ['tuning 27', read('mintlify-questions-27.json')],
      // Thirty more the same way, at the start of the next stop (2026-11-29, 03ae4b0): recall@5 0.833, MRR@10 0.773 at
      // first try; 0.867 / 0.781 after that stop's fixes.
      ['tuning 28', read('mintlify-questions-28.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once at its end (2026-11-29, ca96580):
      // recall@5 1.000, MRR@10 0.868 at first try.
      ['tuning 29', read('mintlify-questions-29.json')],
      // Thirty more, written at the start of the next stop (2026-11-29, 0cdaa57): recall@5 0.967, MRR@10 0.808 at first
      // try.
      ['tuning 30', read('mintlify-questions-30.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once at its end (2026-11-29, 6836f0c):
      // recall@5 0.933, MRR@10 0.793 at first try.
      ['tuning 31', read('mintlify-questions-31.json')],
      // Thirty more, written at the start of the next stop (2026-11-29, 25a5be7): recall@5 0.966, MRR@10 0.972 at first try,
      // on the 29 kept. One, on the `hidden: true` enterprise contracting page, was dropped: hidden pages are out of search.
      ['tuning 32', read('mintlify-questions-32.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once at its end (2026-11-29, 3023f00): recall@5
      // 1.000, MRR@10 0.967.
      ['tuning 33', read('mintlify-questions-33.json')],
      // Thirty more, written at the start of the next stop by a helper who had not seen the code, tried at once (2026-11-30,
      // b66d696): recall@5 0.967, MRR@10 0.921 on all 30. One, on a `hidden: true` help-center page, was dropped, and one
      // was in tuning 28 word for word: 28 kept.
      ['tuning 34', read('mintlify-questions-34.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, a32de6c): recall@5 0.933,
      // MRR@10 0.792 on all 30, below the bar. One, on a `hidden: true` help-center page, was dropped: 29 kept.
      ['tuning 35', read('mintlify-questions-35.json')],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 767c98d): recall@5 0.967,
      // MRR@10 0.794; 1.000 / 0.807 after that stop's reader vocabulary (fdf9d0e).
      ['tuning 36', read('mintlify-questions-36.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, fdf9d0e): recall@5 0.967,
      // MRR@10 0.899 on all 30. One, on a `hidden: true` help-center page, was dropped: 29 kept.
      ['tuning 37', read('mintlify-questions-37.json')],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 9c36152): recall@5 0.933,
      // MRR@10 0.856. One that tuning 30 asks word for word left out: 29 kept.
      ['tuning 38', read('mintlify-questions-38.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, 615bf60): recall@5 0.933,
      // MRR@10 0.917.
      ['tuning 39', read('mintlify-questions-39.json')],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 4510b20): recall@5 0.967,
      // MRR@10 0.833.
      ['tuning 40', read('mintlify-questions-40.json')],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, edc01de): recall@5 0.967,
      // MRR@10 0.880.
      ['tuning 41', read('mintlify-questions-41.json')],
      // Three rounds of thirty more, each tried once at its writing (2026-11-30): recall@5 0.933, 0.900 and 0.933, MRR@10
      // 0.900, 0.821 and 0.771 (round thirty, at 4cfac0d). Left out: three questions whose pages the site does not
      // search (noindex) and one set 34 asks.
      ['tuning 42', read('mintlify-questions-42.json')],
      ['tuning 43', read('mintlify-questions-43.json')],
      ['tuning 44', read('mintlify-questions-44.json')],
      // Two rounds of thirty more, written at this stop's start by helpers who had not seen the code (2026-11-30): round
      // thirty-two tried at once, at 8d5600c: recall@5 0.867, MRR@10 0.814; round thirty-three kept
      // unseen until tried once, at 44acc2e: recall@5 0.900, MRR@10 0.817.
      ['tuning 45', read('mintlify-questions-45.json')],
      ['tuning 46', read('mintlify-questions-46.json')],
      // Two rounds of thirty more, written at the next stop's start the same way (2026-12-01): round thirty-five tried at
      // once, at 1816ef0: recall@5 0.900, MRR@10 0.799; round thirty-six kept unseen until tried once, at 19afc58:
      // recall@5 0.900, MRR@10 0.710.
      ['tuning 47', read('mintlify-questions-47.json')],
      ['tuning 48', read('mintlify-questions-48.json')],
      // Three rounds of thirty more, written the same way (2026-12-01): round thirty-seven kept unseen until tried once,
      // at a3008f3: recall@5 0.867, MRR@10 0.741; round thirty-eight tried at once, at c15cbf4: 0.867, 0.711; round
      // thirty-nine kept unseen until tried once, at bc9e2ae: 1.000, 0.858.
      ['tuning 49', read('mintlify-questions-49.json')],
      ['tuning 50', read('mintlify-questions-50.json')],
      ['tuning 51', read('mintlify-questions-51.json')],
      // Four rounds of thirty more, written the same way (2026-12-01): round forty tried at once, at f787208: recall@5
      // 0.900, MRR@10 0.883; round forty-one kept unseen until tried once, at c9782e6: 0.967, 0.862; round forty-two
      // tried at once, at 49497dd: 1.000, 0.818; round forty-three kept unseen until tried once, at 01c86fd: 0.967, 0.903.
      ['tuning 52', read('mintlify-questions-52.json')],
      ['tuning 53', read('mintlify-questions-53.json')],
      ['tuning 54', read('mintlify-questions-54.json')],
      ['tuning 55', read('mintlify-questions-55.json')],
      // Two rounds of thirty more, written the same way (2026-12-02): round forty-four tried at once, at 001e71f: recall@5
      // 0.933, MRR@10 0.797; round forty-five kept unseen until tried once, at 5f88b7f: 0.967, 0.784.
      ['tuning 56', read('mintlify-questions-56.json')],
      ['tuning 57', read('mintlify-questions-57.json')],
      // Two rounds of thirty more, written the same way (2026-12-02): round forty-six tried at once, at 8fac976: recall@5
      // 0.933, MRR@10 0.671; round forty-seven kept unseen until tried once, at 67917da: 1.000, 0.917.
      ['tuning 58', read('mintlify-questions-58.json')],
      ['tuning 59', read('mintlify-questions-59.json')],
      // Two rounds of thirty more, written the same way (2026-12-02): round forty-eight tried at once, at 7aedc14: recall@5
      // 0.900, MRR@10 0.801; round forty-nine kept unseen until tried once, at aa100bf: 0.966, 0.889 (29 questions: one
      // repeated an earlier set's word for word).
      ['tuning 60', read('mintlify-questions-60.json')],
      ['tuning 61', read('mintlify-questions-61.json')],
      // Two rounds of thirty more, written the same way (2026-12-02): round fifty tried at once, at bdc0ae7: recall@5
      // 1.000, MRR@10 0.867; round fifty-one kept unseen until tried once, at c20bffb: 0.933, 0.872.
      ['tuning 62', read('mintlify-questions-62.json')],
      ['tuning 63', read('mintlify-questions-63.json')],
      // Two rounds of thirty more, written the same way (2026-12-02), both first tried at d1d1137: round fifty-two (tried
      // at once) recall@5 1.000, MRR@10 0.958 (29 joined: one repeated an earlier set); round fifty-three (kept unseen)
      // 1.000, 0.917 (29 joined, the same).
      ['tuning 64', read('mintlify-questions-64.json')],
      ['tuning 65', read('mintlify-questions-65.json')],
      // Two rounds of thirty more, written the same way (2026-12-02): round fifty-four tried at once, at 62515fb: recall@5
      // 1.000, MRR@10 0.933; round fifty-five kept unseen until tried once, at a4a2c23: 1.000, 0.939.
      ['tuning 66', read('mintlify-questions-66.json')],
      ['tuning 67', read('mintlify-questions-67.json')],
      ['held out', read('mintlify-held-out.json')],
    ] as const,
    target: true,
  },
]

for (const { name, directory, sets, target } of corpora) {
  if (!existsSync(directory)) {
    console.log(`${name}: skipped, ${directory} is absent`)
    continue
  }
  const site = await loadDocsSite(await readDirectory(directory))
  for (const [engineName, engine] of engines) {
    const corpus = buildCorpus(site, engine)
    // The sets are samples of one population, readers' questions about this site: the bar is judged on each and on all
    // of them together, where one question moves MRR@10 by a fifth of what it does in a set of 90.
    const judged = target ? [...sets, ['all', sets.flatMap(([, questions]) => questions)] as const] : sets
    for (const [label, questions] of judged) {
      const quality = evaluate(corpus, questions)
      const holds = quality.recallAt5 >= TARGET.recallAt5 && quality.mrrAt10 >= TARGET.mrrAt10
      console.log(
        `${name.padEnd(9)} ${engineName.padEnd(10)} ${label.padEnd(9)} questions ${String(quality.questions).padStart(3)}  recall@5 ${(
          quality.recallAt5 * 100
        ).toFixed(
          1,
        )}%  MRR@10 ${quality.mrrAt10.toFixed(3)}  a page twice in the first 5 (translations) ${quality.translationsAt5}  sections ${corpus.sections.length}${
          target ? `  (target recall@5 ≥ ${TARGET.recallAt5}, MRR@10 ≥ ${TARGET.mrrAt10}: ${holds ? 'OK' : 'BELOW TARGET'})` : ''
        }`,
      )
      // Judged on the engine the server uses; the others are printed for comparison.
      if (target && engineName === 'packed') {
        reportTarget(
          `${name} ${engineName} ${label} recall@5, MRR@10`,
          `${quality.recallAt5.toFixed(3)}, ${quality.mrrAt10.toFixed(3)}`,
          `≥ ${TARGET.recallAt5}, ≥ ${TARGET.mrrAt10}`,
          holds,
        )
      }
      if (showMisses && label !== 'held out' && label !== 'all') {
        for (const miss of quality.misses) {
          console.log(`  miss: ${miss.question}\n    want ${miss.expected.join(', ')}\n    got  ${miss.got.join(', ')}`)
        }
      }
    }
    if (engineName !== 'packed') continue
    // The widget sends the page every question is asked on: one that does not lean on it must find what it finds on no
    // page. Judged as a share of those, all sets together (held out too: only counted), on the corpus the bar is for; the
    // demo's pages are few and small, so a neighbour there shares most of a short question's words (printed to compare).
    const asked = await askedBeside(
      corpus,
      sets.flatMap(([, questions]) => questions),
    )
    const kept = asked.beside / Math.max(asked.alone, 1)
    console.log(
      `${name.padEnd(9)} ${engineName.padEnd(10)} asked on the page beside the expected one: expected page in the first 3 ${asked.beside}/${
        asked.questions
      } (asked on no page ${asked.alone}), kept ${(kept * 100).toFixed(1)}%${
        target ? ` (target ≥ ${BESIDE_KEPT * 100}%: ${kept >= BESIDE_KEPT ? 'OK' : 'BELOW TARGET'})` : ''
      }; read as leaning on that page ${asked.leaning}`,
    )
    if (target) {
      const figure = `${(kept * 100).toFixed(1)}%`
      reportTarget(
        `${name} asked on the page beside: expected page kept in the first 3`,
        figure,
        `≥ ${BESIDE_KEPT * 100}%`,
        kept >= BESIDE_KEPT,
      )
    }
    if (showMisses) {
      // The held-out questions are counted, never shown.
      const heldOut = new Set(sets.flatMap(([label, questions]) => (label === 'held out' ? questions.map((q) => q.question) : [])))
      for (const lost of asked.lost) if (!heldOut.has(lost.question)) console.log(`  lost on ${lost.page}: ${lost.question}`)
    }
  }
}
