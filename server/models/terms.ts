/** Content words of a text, lower-cased and lightly stemmed, for matching questions against docs sentences. */

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can
  could did do does doing done down during each either else even ever every few for from further get gets got had has have
  having he her here hers him his how i if in into is it its itself just like ll make makes many me might more most much must
  my need needs no nor not now of off on once one only or other our ours out over own per please re same shall she should so
  some such than that the their theirs them then there these they this those through to too under until up upon us use used
  uses using ve very via want wants was way we were what when where whether which while who whom whose why will with within
  without would yes yet you your yours`.split(/\s+/),
)

/** Crude suffix stripping: enough for "rollouts"/"rollout", "targeting"/"target", "configured"/"configure". */
export function stem(word: string): string {
  if (word.length <= 4) return word
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length)
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base
    }
  }
  return word
}

export function contentTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? []
  return words.filter((word) => !STOPWORDS.has(word) && word.length > 1).map(stem)
}
