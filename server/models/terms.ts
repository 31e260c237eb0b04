/** Content words of a text (question-framing verbs such as "mean" and "happen" are not content), lower-cased and lightly stemmed, for matching questions against docs sentences. */

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can
  could did do does doing done down during each either else even ever every few for from further get gets got had has have
  having he her here hers him his how i if in into is it its itself just like ll make makes many me might more most much must
  my need needs no nor not now of off on once one only or other our ours out over own per please re same shall she should so
  some such than that the their theirs them then there these they this those through to too under until up upon us use used
  uses using ve very via want wants was way we were what when where whether which while who whom whose why will with within
  without would yes yet you your yours
  anymore consider considered explain happen happens happened know mean means meant possible tell work works`.split(/\s+/),
)

/**
 * Crude suffix stripping, consistent across a word's forms: "rule"/"rules", "configure"/"configured"/"configuring"
 * and "rollout"/"rollouts" each end up as one stem (a final "e" is dropped so the forms meet).
 */
export function stem(word: string): string {
  if (word.length <= 4) return word
  let base = word
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ed', 's']) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3 || (suffix === 's' && word.endsWith('ss'))) continue
    base = word.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '')
    break
  }
  return base.length > 4 && base.endsWith('e') ? base.slice(0, -1) : base
}

/** The content words as written (lower-cased, not stemmed), e.g. to tell a reader what was not found. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? []
  // Single digits stay: "exit code 6" is about 6.
  return words.filter((word) => !STOPWORDS.has(word) && (word.length > 1 || /\d/.test(word)))
}

export const contentTerms = (text: string): string[] => contentWords(text).map(stem)
