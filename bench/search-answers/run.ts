// Answers through the v2 endpoint with the built-in offline model, on demo/docs and the Mintlify corpus:
// - page-leaning questions asked on a page (`currentPath`) or after an earlier question: is an expected page among the
//   first 3 sources, and is the question answered (not declined)? Target: at least 11 in 12 do both.
// - questions that do not lean on a page: is the question answered and does the answer cite an expected page?
//   Target: at least 9 in 10 cite one.
// - off-topic questions, and off-topic questions that share a word with the docs: declined? Target: all. Asked on no
//   page and again on a page, as the widget asks them.
// - questions that do not lean on a page, asked again on the page beside the expected one: still cited?
// - follow-ups after an earlier question (written before the offline model read follow-ups differently): is the
//   answer citing an expected page? Same target as questions.
// - how many answers leave a sentence on its colon ("Embed videos using iframes:" with no code after it), and how many
//   open on a sentence that refers back to one they do not quote ("This limit does not apply…"), per set.
// Tuning and held-out sets (the Mintlify questions have two tuning sets, the second written after the first was tuned) are reported apart. `--verbose` prints the tuning sets' failures with their answers (never
// the held-out ones: they stay unseen).
// `node --import tsx bench/search-answers/run.ts [demo|mintlify]`
import { existsSync, readFileSync } from 'node:fs'
import { type Reader, samePage, serveDocs } from './ask.ts'
import { pageBeside } from '../search-quality/on-a-page.ts'
import { reportTarget } from '../support.ts'

interface PageCase {
  question: string
  pages: string[]
  page?: string
  previous?: string[]
}

const MINTLIFY = '../shared/corpora/mintlify-docs'
/** Off-topic questions are asked again on every this-many-th listed page in turn: a spread of sections and languages. */
const OFF_TOPIC_PAGE_STRIDE = 7
const verbose = process.argv.includes('--verbose')
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const read = (file: string) => JSON.parse(readFileSync(`bench/search-quality/${file}`, 'utf8')) as PageCase[]
const offTopicSets = JSON.parse(readFileSync('bench/assistant/off-topic.json', 'utf8')) as {
  any: string[]
  demo: string[]
  sharing: string[]
}

const corpora: Array<{ name: string; directory: string; sets: Array<[label: string, cases: PageCase[], kind: 'page' | 'plain']> }> = [
  {
    name: 'demo',
    directory: 'demo/docs',
    sets: [
      ['page-leaning', read('demo-page-questions.json'), 'page'],
      // Written before they were tried (after the property questions of Mintlify's third set leaned on the page), on ten
      // pages the first set does not ask about: 10/10 at first try.
      ['page-leaning (2)', read('demo-page-questions-2.json'), 'page'],
      ['questions', read('questions.json'), 'plain'],
      ['follow-ups', read('demo-follow-ups.json'), 'plain'],
    ],
  },
  {
    name: 'mintlify',
    directory: MINTLIFY,
    sets: [
      ['page-leaning (tuning)', read('mintlify-page-questions.json'), 'page'],
      // Written before they were tried, on pages the first set does not ask about; then tuned on (phrases split by their
      // object, "turn this on"; answers quoting the reader's page).
      ['page-leaning (tuning 2)', read('mintlify-page-questions-2.json'), 'page'],
      // Written before they were tried, on pages the other sets do not ask about: the first twelve 10/12, then 11/12
      // once "each one" read as pointing at the page's subject; six more asking only of properties ("is there a
      // maximum?", "which formats are supported?") 2/6, then 6/6 (and the twelve 12/12) once such questions leaned on
      // the page.
      ['page-leaning (tuning 3)', read('mintlify-page-questions-3.json'), 'page'],
      // Twelve more on pages no set asked about, written before they were tried (2026-11-28): 11/12 at first try. The
      // miss is vocabulary: "what are the hardware requirements?" on Self-host, which gives vCPU, memory and storage.
      ['page-leaning (tuning 4)', read('mintlify-page-questions-4.json'), 'page'],
      // Twelve on pages drawn at random, written by a helper who had not seen the code, before they were tried
      // (2026-11-28): 9/12 at first try.
      ['page-leaning (tuning 5)', read('mintlify-page-questions-5.json'), 'page'],
      // Twelve more the same way, after this stop's fixes (2026-11-28): 11/12 at first try.
      ['page-leaning (tuning 6)', read('mintlify-page-questions-6.json'), 'page'],
      // Twelve more the same way, after the previous stop's fixes (2026-11-29): 10/12 at first try.
      ['page-leaning (tuning 7)', read('mintlify-page-questions-7.json'), 'page'],
      // Twelve more the same way, after this stop's fixes (2026-11-29): 11/12 at first try.
      ['page-leaning (tuning 8)', read('mintlify-page-questions-8.json'), 'page'],
      // Twelve more each, before this stop's fixes and after its first (2026-11-29): 11/12 and 10/12 at first try.
      ['page-leaning (tuning 9)', read('mintlify-page-questions-9.json'), 'page'],
      ['page-leaning (tuning 10)', read('mintlify-page-questions-10.json'), 'page'],
      // Twelve more, near this stop's end (2026-11-29, 225024e): 10/12 at first try; 11/12 after one synonym.
      ['page-leaning (tuning 11)', read('mintlify-page-questions-11.json'), 'page'],
      // Twelve more, at the start of the next stop (2026-11-29, 8ada1de): 9/12 at first try; 11/12 after that stop's fixes.
      ['page-leaning (tuning 12)', read('mintlify-page-questions-12.json'), 'page'],
      // Ten more, written at that stop's start and kept unseen until tried once near its end (2026-11-29, ab9cc40): 9/10
      // at first try; 10/10 after. (The helper drew two snippet files as well, which no reader visits: left out.)
      ['page-leaning (tuning 13)', read('mintlify-page-questions-13.json'), 'page'],
      // Twelve more, written at the start of the next stop by a helper who had not seen the code (2026-11-29, a990ee0):
      // 11/12 at first try; 12/12 after that stop's fixes. One, on /api/preview/trigger, was a question of tuning 9 word
      // for word and is left out here: 10/11 and 11/11.
      ['page-leaning (tuning 14)', read('mintlify-page-questions-14.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-29, 59d3f48): 11/12; 11/12 after.
      ['page-leaning (tuning 15)', read('mintlify-page-questions-15.json'), 'page'],
      // Twelve more, written at the start of the next stop by a helper who had not seen the code (2026-11-29, 7b9dc86):
      // 12/12 at first try.
      ['page-leaning (tuning 16)', read('mintlify-page-questions-16.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-29, 292b660): 12/12.
      ['page-leaning (tuning 17)', read('mintlify-page-questions-17.json'), 'page'],
      // Twelve more, written at the start of the next stop (2026-11-29, 03ae4b0): 12/12 at first try.
      ['page-leaning (tuning 18)', read('mintlify-page-questions-18.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-29, ca96580): 11/12.
      ['page-leaning (tuning 19)', read('mintlify-page-questions-19.json'), 'page'],
      // Twelve more, written at the start of the next stop (2026-11-29, 0cdaa57): 11/12 at first try.
      ['page-leaning (tuning 20)', read('mintlify-page-questions-20.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-29, 6836f0c): 11/12.
      ['page-leaning (tuning 21)', read('mintlify-page-questions-21.json'), 'page'],
      // Twelve more, written at the start of the next stop (2026-11-29, 25a5be7): 12/12 at first try.
      ['page-leaning (tuning 22)', read('mintlify-page-questions-22.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-29, 3023f00): 12/12. One
      // was in page-leaning (tuning 19) word for word: eleven added.
      ['page-leaning (tuning 23)', read('mintlify-page-questions-23.json'), 'page'],
      // Twelve more, written at the start of the next stop (2026-11-30, b66d696): 9/12 at first try; 10/12 after that
      // stop's fixes ("which ones exactly?", "does my file need to follow?").
      ['page-leaning (tuning 24)', read('mintlify-page-questions-24.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-30, a32de6c): 10/12.
      ['page-leaning (tuning 25)', read('mintlify-page-questions-25.json'), 'page'],
      // Twelve more, written at the start of the next stop and tried at once (2026-11-30, 767c98d): 9/12, three declined
      // though their page came first ("which two values does this need, and where do they go?").
      ['page-leaning (tuning 26)', read('mintlify-page-questions-26.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-30, fdf9d0e): 11/12. The one
      // missed, "what happens to these on a phone?", was in tuning 12 on the same page word for word, and is left out.
      ['page-leaning (tuning 27)', read('mintlify-page-questions-27.json'), 'page'],
      // Twelve more, written at the start of the next stop and tried at once (2026-11-30, 9c36152): 12/12.
      ['page-leaning (tuning 28)', read('mintlify-page-questions-28.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-30, 615bf60): 10/12, both
      // declined with their page first ("is passive voice ever fine, or should I hunt down every instance of it?").
      ['page-leaning (tuning 29)', read('mintlify-page-questions-29.json'), 'page'],
      // Twelve more, written at the start of the next stop and tried at once (2026-11-30, 4510b20): 11/12 (the Amplitude
      // page 5th for "which field does the key go under?").
      ['page-leaning (tuning 30)', read('mintlify-page-questions-30.json'), 'page'],
      // Twelve more, written at that stop's start and kept unseen until tried once (2026-11-30, edc01de): 9/12, one not
      // found ("which chat tools can I hook up here?") and two declined with their page first.
      ['page-leaning (tuning 31)', read('mintlify-page-questions-31.json'), 'page'],
      // Three rounds of twelve more (twenty-eight to thirty), each written at a stop's start and tried once at its
      // writing (2026-11-30): 12/12, 11/12 and 11/12 (round thirty, at 4cfac0d: "Does this still show up in the
      // right-hand panel on phones?" declined on /components/examples). A question set 21 asks is left out of 32.
      ['page-leaning (tuning 32)', read('mintlify-page-questions-32.json'), 'page'],
      ['page-leaning (tuning 33)', read('mintlify-page-questions-33.json'), 'page'],
      ['page-leaning (tuning 34)', read('mintlify-page-questions-34.json'), 'page'],
      // Two rounds of twelve more, written at this stop's start by helpers who had not seen the code (2026-11-30): round
      // thirty-two tried at once, at 8d5600c: 11/12 ("if someone closes it, does it ever come back for them?" on the banner,
      // declined); round thirty-three kept unseen until tried once, at 44acc2e: 10/12.
      ['page-leaning (tuning 35)', read('mintlify-page-questions-35.json'), 'page'],
      ['page-leaning (tuning 36)', read('mintlify-page-questions-36.json'), 'page'],
      // Two rounds of twelve more, written at the next stop's start the same way (2026-12-01): round thirty-five tried at
      // once, at 1816ef0: 9/12 (three declined with the reader's page first: how long previews stick around after a
      // merge, the job statuses and where the PR is, the subdomain to plug into the rewrites); round thirty-six kept
      // unseen until tried once, at 19afc58: 10/12.
      ['page-leaning (tuning 37)', read('mintlify-page-questions-37.json'), 'page'],
      ['page-leaning (tuning 38)', read('mintlify-page-questions-38.json'), 'page'],
      // Three rounds of twelve more, written the same way (2026-12-01): round thirty-seven kept unseen until tried once,
      // at a3008f3: 12/12; round thirty-eight tried at once, at c15cbf4: 11/12 (a skill file asked how long until "this
      // file reflects" a change, declined on "a bunch of docs"); round thirty-nine kept unseen until tried once, at
      // bc9e2ae: 12/12. Rounds 38 and 39 each repeated a question of an earlier set word for word: left out.
      ['page-leaning (tuning 39)', read('mintlify-page-questions-39.json'), 'page'],
      ['page-leaning (tuning 40)', read('mintlify-page-questions-40.json'), 'page'],
      ['page-leaning (tuning 41)', read('mintlify-page-questions-41.json'), 'page'],
      // Four rounds of twelve more, written the same way (2026-12-01): round forty tried at once, at f787208: 11/12 ("can i
      // stick a BETA label on one of these items?" declined); round forty-one kept unseen until tried once, at c9782e6:
      // 11/12 ("Can I turn the playground off on just one of these pages…?" declined); round forty-two tried at once, at
      // 49497dd: 12/12; round forty-three kept unseen until tried once, at 01c86fd: 11/12 ("how do I get the next batch
      // of results?" declined). Four questions repeated an earlier set's word for word: left out.
      ['page-leaning (tuning 42)', read('mintlify-page-questions-42.json'), 'page'],
      ['page-leaning (tuning 43)', read('mintlify-page-questions-43.json'), 'page'],
      ['page-leaning (tuning 44)', read('mintlify-page-questions-44.json'), 'page'],
      ['page-leaning (tuning 45)', read('mintlify-page-questions-45.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02): round forty-four tried at once, at 001e71f: 11/12
      // ("do I need both of these ids or just one?" on the Hotjar page, declined); round forty-five kept unseen until
      // tried once, at 5f88b7f: 12/12. One question of each repeated an earlier set's word for word: left out.
      ['page-leaning (tuning 46)', read('mintlify-page-questions-46.json'), 'page'],
      ['page-leaning (tuning 47)', read('mintlify-page-questions-47.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02): round forty-six tried at once, at 8fac976: 12/12;
      // round forty-seven kept unseen until tried once, at 67917da: 11/12 ("can i have a couple of these on the same
      // endpoint, like one for the cli and one for the js sdk?" on the SDK examples page, declined).
      ['page-leaning (tuning 48)', read('mintlify-page-questions-48.json'), 'page'],
      ['page-leaning (tuning 49)', read('mintlify-page-questions-49.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02): round forty-eight tried at once, at 7aedc14: 12/12;
      // round forty-nine kept unseen until tried once, at aa100bf: 9/11 ("what format do the files show up in once they
      // land in the bucket?" on the streaming page, which was not among the sources; a playable audio clip on the
      // multiple responses page, declined). One question repeated an earlier set's word for word: left out.
      ['page-leaning (tuning 50)', read('mintlify-page-questions-50.json'), 'page'],
      ['page-leaning (tuning 51)', read('mintlify-page-questions-51.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02): round fifty tried at once, at bdc0ae7: 10/12 ("what
      // statuses does it go through, and where do I find the PR once it's made?" on the v2 get agent job page, declined;
      // "what falls under 'other' here?" on the caller stats page, declined); round fifty-one kept unseen until tried
      // once, at c20bffb: 11/12. Its miss asked on the go-live checklist, a `noindex` page, which the assistant is not
      // given (as Mintlify's table of `noindex` says): left out.
      ['page-leaning (tuning 52)', read('mintlify-page-questions-52.json'), 'page'],
      ['page-leaning (tuning 53)', read('mintlify-page-questions-53.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02), both first tried at d1d1137: round fifty-two (tried
      // at once) 11/12 ("if I switch telemetry off entirely, does anything else stop working?" on the privacy overview,
      // declined); round fifty-three (kept unseen) 11/12 ("do I have to type in the star count myself or does it update
      // on its own?" on the GitHub component's page, declined).
      ['page-leaning (tuning 54)', read('mintlify-page-questions-54.json'), 'page'],
      ['page-leaning (tuning 55)', read('mintlify-page-questions-55.json'), 'page'],
      // Two rounds of twelve more, written the same way (2026-12-02): round fifty-four tried at once, at 62515fb: 12/12;
      // round fifty-five kept unseen until tried once, at a4a2c23: 12/12. One question of round fifty-five repeated an
      // earlier set's word for word ("How long are these kept around?"): left out.
      ['page-leaning (tuning 56)', read('mintlify-page-questions-56.json'), 'page'],
      ['page-leaning (tuning 57)', read('mintlify-page-questions-57.json'), 'page'],
      ['page-leaning (held out)', read('mintlify-page-held-out.json'), 'page'],
      ['questions (tuning)', read('mintlify-questions.json'), 'plain'],
      ['questions (tuning 2)', read('mintlify-questions-2.json'), 'plain'],
      // Written before they were tried, on twelve pages: 9/12 cited an expected page, 10/12 once a verb no quoted passage
      // holds ("draw" a sequence diagram) weighed less. Two are vocabulary the search does not bridge ("send visitors
      // from an old page to a new url" for redirects, "see my changes before publishing" for the live preview).
      ['questions (tuning 3)', read('mintlify-questions-3.json'), 'plain'],
      // Twenty-four written before they were tried (2026-11-28), on pages no other set asks about: 22/24 at first try.
      ['questions (tuning 4)', read('mintlify-questions-4.json'), 'plain'],
      // Twenty-four more, on pages drawn at random (some asked about by other sets), written before they were tried:
      // 21/24 at first try, 22/24 once the CLI's overview counted for "run the docs locally with the cli" (it says so).
      ['questions (tuning 5)', read('mintlify-questions-5.json'), 'plain'],
      // Twenty on listed pages no set asked about, written before they were tried (2026-11-28): 12/20 at first try.
      ['questions (tuning 6)', read('mintlify-questions-6.json'), 'plain'],
      // Thirty, twenty on the last listed pages no set asked about and ten on pages drawn at random, written before
      // they were tried (2026-11-28): 23/30 at first try.
      ['questions (tuning 7)', read('mintlify-questions-7.json'), 'plain'],
      // Thirty on pages drawn at random, in a reader's words, written before they were tried (2026-11-28): 23/30
      // at first try.
      ['questions (tuning 8)', read('mintlify-questions-8.json'), 'plain'],
      // Thirty more on pages drawn at random, in a reader's words, written before they were tried and after this stop's
      // fixes (2026-11-28): 20/30 at first try.
      ['questions (tuning 9)', read('mintlify-questions-9.json'), 'plain'],
      // Thirty more on pages drawn at random, in a reader's words, written by a helper who had not seen the search, before
      // they were tried and after this stop's fixes (2026-11-28): 26/30 at first try.
      ['questions (tuning 10)', read('mintlify-questions-10.json'), 'plain'],
      // Thirty more on pages drawn at random, written the same way after this stop's fixes (2026-11-28): 26/30 at first
      // try.
      ['questions (tuning 11)', read('mintlify-questions-11.json'), 'plain'],
      // Thirty more on pages drawn at random, written the same way by a helper after the previous stop's fixes
      // (2026-11-28): 24/30 at first try.
      ['questions (tuning 12)', read('mintlify-questions-12.json'), 'plain'],
      // The last seven pages no set had used, written the same way (2026-11-28): 4/7 at first try.
      ['questions (tuning 13)', read('mintlify-questions-13.json'), 'plain'],
      // Thirty on pages drawn at random, written by a helper who had not seen the search, after this stop's fixes
      // (2026-11-28): see the first try below.
      ['questions (tuning 14)', read('mintlify-questions-14.json'), 'plain'],
      // Thirty on pages drawn at random, written the same way (2026-11-28): 19/30 at first try, most misses long
      // questions that tell a story, declined with the right page first. One was dropped (see bench/search-quality).
      ['questions (tuning 15)', read('mintlify-questions-15.json'), 'plain'],
      // Thirty more the same way, after this stop's fixes (2026-11-28): 27/30 at first try.
      ['questions (tuning 16)', read('mintlify-questions-16.json'), 'plain'],
      // Thirty more the same way, after the previous stop's fixes (2026-11-29): 24/30 at first try.
      ['questions (tuning 17)', read('mintlify-questions-17.json'), 'plain'],
      // Thirty more the same way, after this stop's fixes (2026-11-29): 27/30 at first try.
      ['questions (tuning 18)', read('mintlify-questions-18.json'), 'plain'],
      // Thirty more the same way, before this stop's fixes (2026-11-29): 26/27 at first try (three dropped: their pages
      // are kept out of search, see bench/search-quality/run.ts).
      ['questions (tuning 19)', read('mintlify-questions-19.json'), 'plain'],
      // Thirty more the same way, after this stop's first fixes (2026-11-29): 23/30 at first try.
      ['questions (tuning 20)', read('mintlify-questions-20.json'), 'plain'],
      // Thirty more the same way, near this stop's end (2026-11-29, 225024e): 27/30 at first try.
      ['questions (tuning 21)', read('mintlify-questions-21.json'), 'plain'],
      // Thirty more the same way, at the start of the next stop (2026-11-29, 8ada1de): 28/30 at first try; 30/30 after.
      ['questions (tuning 22)', read('mintlify-questions-22.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, ab9cc40): 27/30; 30/30 after.
      ['questions (tuning 23)', read('mintlify-questions-23.json'), 'plain'],
      // Thirty more the same way, at the start of the next stop (2026-11-29, a990ee0): 22/30 at first try; 25/30 after.
      ['questions (tuning 24)', read('mintlify-questions-24.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 59d3f48): 26/30; 29/30 after.
      ['questions (tuning 25)', read('mintlify-questions-25.json'), 'plain'],
      // Thirty more the same way, at the start of the next stop (2026-11-29, 7b9dc86): 26/30 at first try; 27/30 after.
      ['questions (tuning 26)', read('mintlify-questions-26.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 292b660): 19/30; 21/30 after.
      ['questions (tuning 27)', read('mintlify-questions-27.json'), 'plain'],
      // Thirty more the same way (2026-11-29, 03ae4b0): 23/30 at first try, 23/30 after.
      ['questions (tuning 28)', read('mintlify-questions-28.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, ca96580): 28/30.
      ['questions (tuning 29)', read('mintlify-questions-29.json'), 'plain'],
      // Thirty more, written at the start of the next stop (2026-11-29, 0cdaa57): 27/30 at first try.
      ['questions (tuning 30)', read('mintlify-questions-30.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 6836f0c): 25/30.
      ['questions (tuning 31)', read('mintlify-questions-31.json'), 'plain'],
      // Thirty more, written at the start of the next stop (2026-11-29, 25a5be7): 26/29 at first try (one on a hidden page dropped).
      ['questions (tuning 32)', read('mintlify-questions-32.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-29, 3023f00): 29/30.
      ['questions (tuning 33)', read('mintlify-questions-33.json'), 'plain'],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, b66d696): 28/30. Two left out:
      // one on a hidden page, one in tuning 28 word for word.
      ['questions (tuning 34)', read('mintlify-questions-34.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, a32de6c): 26/30. One, on a
      // hidden page, left out.
      ['questions (tuning 35)', read('mintlify-questions-35.json'), 'plain'],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 767c98d): 26/30; 28/30 after
      // that stop's reader vocabulary (fdf9d0e).
      ['questions (tuning 36)', read('mintlify-questions-36.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, fdf9d0e): 28/30. One, on a
      // hidden page, left out.
      ['questions (tuning 37)', read('mintlify-questions-37.json'), 'plain'],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 9c36152): 27/30. One that
      // tuning 30 asks word for word left out.
      ['questions (tuning 38)', read('mintlify-questions-38.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, 615bf60): 28/30.
      ['questions (tuning 39)', read('mintlify-questions-39.json'), 'plain'],
      // Thirty more, written at the start of the next stop and tried at once (2026-11-30, 4510b20): 29/30.
      ['questions (tuning 40)', read('mintlify-questions-40.json'), 'plain'],
      // Thirty more, written at that stop's start and kept unseen until tried once (2026-11-30, edc01de): 28/30.
      ['questions (tuning 41)', read('mintlify-questions-41.json'), 'plain'],
      // Three rounds of thirty more, each tried once at its writing (2026-11-30): 27/30, 26/30 and 27/30 (round thirty,
      // at 4cfac0d). Left out: three questions whose pages the site does not search (noindex) and one set 34 asks.
      ['questions (tuning 42)', read('mintlify-questions-42.json'), 'plain'],
      ['questions (tuning 43)', read('mintlify-questions-43.json'), 'plain'],
      ['questions (tuning 44)', read('mintlify-questions-44.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-11-30): round thirty-two at 8d5600c 26/30, round thirty-three (kept
      // unseen) at 44acc2e 23/30.
      ['questions (tuning 45)', read('mintlify-questions-45.json'), 'plain'],
      ['questions (tuning 46)', read('mintlify-questions-46.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-01): round thirty-five at 1816ef0 25/30, round thirty-six (kept
      // unseen) at 19afc58 24/30.
      ['questions (tuning 47)', read('mintlify-questions-47.json'), 'plain'],
      ['questions (tuning 48)', read('mintlify-questions-48.json'), 'plain'],
      // Three rounds of thirty more, the same way (2026-12-01): round thirty-seven (kept unseen) at a3008f3 26/30, round
      // thirty-eight at c15cbf4 24/30, round thirty-nine (kept unseen) at bc9e2ae 29/30.
      ['questions (tuning 49)', read('mintlify-questions-49.json'), 'plain'],
      ['questions (tuning 50)', read('mintlify-questions-50.json'), 'plain'],
      ['questions (tuning 51)', read('mintlify-questions-51.json'), 'plain'],
      // Four rounds of thirty more, the same way (2026-12-01): round forty at f787208 26/30, round forty-one (kept unseen)
      // at c9782e6 27/30, round forty-two at 49497dd 26/30, round forty-three (kept unseen) at 01c86fd 26/30.
      ['questions (tuning 52)', read('mintlify-questions-52.json'), 'plain'],
      ['questions (tuning 53)', read('mintlify-questions-53.json'), 'plain'],
      ['questions (tuning 54)', read('mintlify-questions-54.json'), 'plain'],
      ['questions (tuning 55)', read('mintlify-questions-55.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02): round forty-four at 001e71f 26/30, round forty-five (kept
      // unseen) at 5f88b7f 28/30.
      ['questions (tuning 56)', read('mintlify-questions-56.json'), 'plain'],
      ['questions (tuning 57)', read('mintlify-questions-57.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02): round forty-six at 8fac976 24/30, round forty-seven (kept
      // unseen) at 67917da 28/30.
      ['questions (tuning 58)', read('mintlify-questions-58.json'), 'plain'],
      ['questions (tuning 59)', read('mintlify-questions-59.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02): round forty-eight at 7aedc14 25/30, round forty-nine (kept
      // unseen) at aa100bf 27/29 (one repeated an earlier set's word for word: left out).
      ['questions (tuning 60)', read('mintlify-questions-60.json'), 'plain'],
      ['questions (tuning 61)', read('mintlify-questions-61.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02): round fifty at bdc0ae7 30/30, round fifty-one (kept unseen)
      // at c20bffb 27/30.
      ['questions (tuning 62)', read('mintlify-questions-62.json'), 'plain'],
      ['questions (tuning 63)', read('mintlify-questions-63.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02), both first tried at d1d1137: round fifty-two 28/30 (29 joined:
      // one repeated an earlier set's word for word), round fifty-three (kept unseen) 27/30 (29 joined, the same).
      ['questions (tuning 64)', read('mintlify-questions-64.json'), 'plain'],
      ['questions (tuning 65)', read('mintlify-questions-65.json'), 'plain'],
      // Two rounds of thirty more, the same way (2026-12-02): round fifty-four at 62515fb 30/30; round fifty-five (kept
      // unseen) at a4a2c23 29/30 ("our own brand typefaces as woff2 files…", declined with the fonts page first; 30/30
      // once "typefaces" read as fonts, 547a3bf).
      ['questions (tuning 66)', read('mintlify-questions-66.json'), 'plain'],
      ['questions (tuning 67)', read('mintlify-questions-67.json'), 'plain'],
      ['questions (held out)', read('mintlify-held-out.json'), 'plain'],
      ['follow-ups', read('mintlify-follow-ups.json'), 'plain'],
    ],
  },
]

/** An answer with a paragraph that ends on "…: [n]" with no code after it: what the sentence introduces is missing. */
const endsOnColon = (text: string) => text.split('\n\n').some((p, i, all) => /:\s\[\d+\]$/.test(p) && !all[i + 1]?.startsWith('```'))
/** An answer whose first sentence refers back to one it does not quote ("This limit does not apply…"). */
const opensOnReference = (text: string) => /^(?:this|that|these|those|it|they|such)\b/i.test(text) && !/^this (?:page|guide)\b/i.test(text)
const pct = (n: number, of: number) => `${n}/${of} (${((100 * n) / Math.max(of, 1)).toFixed(0)}%)`
const verdict = (ok: boolean) => (ok ? 'OK' : 'BELOW TARGET')

for (const corpus of corpora) {
  if (only.length > 0 && !only.includes(corpus.name)) continue
  if (!existsSync(corpus.directory)) {
    console.log(`${corpus.name}: skipped, ${corpus.directory} is absent`)
    continue
  }
  const started = performance.now()
  const reader: Reader = await serveDocs(corpus.directory)
  console.log(`${corpus.name} (${corpus.directory}), loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  try {
    // The question sets are samples of one population, readers' questions about these docs: the bar is judged on each
    // and on all of them together.
    const allQuestions = { cited: 0, count: 0 }
    // Every question that does not lean on a page, asked again on the page beside its expected one (see pageBeside):
    // the widget sends the page each question is asked on.
    const beside = { cited: 0, citedAlone: 0, count: 0 }
    for (const [label, cases, kind] of corpus.sets) {
      let inTop3 = 0
      let answered = 0
      let both = 0
      let cited = 0
      let onColon = 0
      let onReference = 0
      for (const c of cases) {
        const result = await reader.ask(c.question, { page: c.page, previous: c.previous })
        const expected = (path: string) => c.pages.some((page) => samePage(page, path))
        const top = result.sources.slice(0, 3).some(expected)
        const cites = !result.declined && result.cited.some(expected)
        if (top) inTop3++
        if (!result.declined) answered++
        if (top && !result.declined) both++
        if (cites) cited++
        if (endsOnColon(result.text)) onColon++
        if (!result.declined && opensOnReference(result.text)) onReference++
        const ok = kind === 'page' ? top && !result.declined : cites
        const besidePage = kind === 'plain' && !c.previous && label.startsWith('questions') ? pageBeside(reader.pages, c.pages) : undefined
        if (besidePage !== undefined) {
          const there = await reader.ask(c.question, { page: `/${besidePage}` })
          beside.count++
          if (cites) beside.citedAlone++
          if (!there.declined && there.cited.some(expected)) beside.cited++
          else if (verbose && cites && !label.includes('held out')) {
            console.log(`  - lost on /${besidePage}: "${c.question}"; sources ${there.sources.join(', ')}; cited ${there.cited.join(', ')}`)
          }
        }
        if (verbose && !ok && !label.includes('held out')) {
          console.log(`  - ${c.page ?? ''} ${c.previous ? `[after: ${c.previous.join(' / ')}] ` : ''}"${c.question}"`)
          console.log(`    want ${c.pages.join(', ')}; sources ${result.sources.join(', ')}; cited ${result.cited.join(', ')}`)
          console.log(`    ${result.text.replace(/\n+/g, ' ¶ ').slice(0, 400)}`)
        }
      }
      if (kind === 'page') {
        const rate = both / cases.length
        console.log(
          `  ${label.padEnd(26)} expected page in first 3 sources and answered ${pct(both, cases.length)} (target ≥ 11/12: ${verdict(
            rate >= 11 / 12,
          )}); in first 3 ${pct(inTop3, cases.length)}, answered ${pct(answered, cases.length)}, cites an expected page ${pct(
            cited,
            cases.length,
          )}; a sentence left on its colon ${onColon}; opening on a reference ${onReference}`,
        )
        reportTarget(`${corpus.name} ${label}: expected page in first 3 and answered`, pct(both, cases.length), '≥ 11/12', rate >= 11 / 12)
      } else {
        const rate = cited / cases.length
        console.log(
          `  ${label.padEnd(26)} answered and cites an expected page ${pct(cited, cases.length)} (target ≥ 9/10: ${verdict(
            rate >= 0.9,
          )}); answered ${pct(answered, cases.length)}, expected page in first 3 sources ${pct(inTop3, cases.length)}; a sentence left on its colon ${onColon}; opening on a reference ${onReference}`,
        )
        reportTarget(`${corpus.name} ${label}: answered, cites an expected page`, pct(cited, cases.length), '≥ 9/10', rate >= 0.9)
        if (label.startsWith('questions')) {
          allQuestions.cited += cited
          allQuestions.count += cases.length
        }
      }
    }
    if (allQuestions.count > 0) {
      const { cited, count } = allQuestions
      console.log(
        `  ${'questions (all)'.padEnd(26)} answered and cites an expected page ${pct(cited, count)} (target ≥ 9/10: ${verdict(cited / count >= 0.9)})`,
      )
      reportTarget(`${corpus.name} questions (all): answered, cites an expected page`, pct(cited, count), '≥ 9/10', cited / count >= 0.9)
    }
    if (beside.count > 0) {
      const kept = beside.cited / Math.max(beside.citedAlone, 1)
      console.log(
        `  ${'asked on the page beside'.padEnd(26)} answered and cites an expected page ${pct(beside.cited, beside.count)} (asked on no page ${
          beside.citedAlone
        }; kept ${(kept * 100).toFixed(1)}%)`,
      )
    }
    const offTopicGroups: Array<[label: string, questions: string[]]> = [
      ['off-topic', [...offTopicSets.any, ...(corpus.name === 'demo' ? offTopicSets.demo : [])]],
      // Questions about something else that share a word with the docs ("a theme for a wedding").
      ['off-topic, a shared word', offTopicSets.sharing],
    ]
    for (const [label, offTopic] of offTopicGroups) {
      let declined = 0
      let declinedOnPage = 0
      for (const [i, question] of offTopic.entries()) {
        const result = await reader.ask(question)
        if (result.declined) declined++
        else if (verbose) console.log(`  - ${label} answered: "${question}": ${result.text.replace(/\n+/g, ' ¶ ').slice(0, 300)}`)
        // The widget sends the reader's page with every question, off-topic ones too: asked on a page (every
        // OFF_TOPIC_PAGE_STRIDE-th listed page in turn), the page adds its words to the search.
        const page = reader.pages[(i * OFF_TOPIC_PAGE_STRIDE) % reader.pages.length]!
        const onPage = await reader.ask(question, { page })
        if (onPage.declined) declinedOnPage++
        else if (verbose)
          console.log(`  - ${label} answered on ${page}: "${question}": ${onPage.text.replace(/\n+/g, ' ¶ ').slice(0, 200)}`)
      }
      const all = offTopic.length
      console.log(
        `  ${label.padEnd(26)} declined ${pct(declined, all)} (target all: ${verdict(declined === all)}); asked on a page ${pct(declinedOnPage, all)} (target all: ${verdict(declinedOnPage === all)})`,
      )
      reportTarget(`${corpus.name} ${label} declined`, pct(declined, all), 'all', declined === all)
      reportTarget(`${corpus.name} ${label} declined, asked on a page`, pct(declinedOnPage, all), 'all', declinedOnPage === all)
    }
  } finally {
    await reader.stop()
  }
}
