/**
 * Fenced code blocks read line by line, as CommonMark reads them: a fence is a run of three or more backticks or
 * tildes, and only a run of the same character, at least as long, with nothing after it, closes it. So a block that
 * shows markdown (a ```` ```` ```` fence around a ```` ``` ```` example, as docs about docs write) is one block, not two
 * with prose between. Indentation is allowed whatever its depth: MDX pages indent fences inside components.
 */
export interface Fence {
  /** The fence's character, repeated as often as it opened: `` ``` `` or `~~~~`. */
  marker: string
}

/**
 * The fence a line opens, if it opens one (a backtick fence's info string holds no backtick). The info string is the
 * rest of the line, taken after the fence is found: linear, where `/^\s*(`{3,}|~{3,})(.*)$/` read the rest of the line
 * again for every shorter fence it tried. A `\r` that ends the line is its CRLF line ending (closesFence's `\s*` reads
 * it too); any other line break in the info string means no fence.
 */
export function openingFence(line: string): Fence | undefined {
  const found = /^\s*(`{3,}|~{3,})/.exec(line)
  if (!found) return undefined
  const info = line.endsWith('\r') ? line.slice(found[0].length, -1) : line.slice(found[0].length)
  if (LINE_BREAK.test(info) || (found[1]![0] === '`' && info.includes('`'))) return undefined
  return { marker: found[1]! }
}

/** What `.` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/

/** Whether a line closes `fence`: the same character, at least as many times, and nothing else. */
export function closesFence(line: string, fence: Fence): boolean {
  const found = /^\s*(`{3,}|~{3,})\s*$/.exec(line)
  return found !== null && found[1]![0] === fence.marker[0] && found[1]!.length >= fence.marker.length
}

/**
 * The markdown cut into runs outside and inside fenced code, in order; `code` runs hold their fences. Joined, the runs
 * are the markdown again. An unclosed fence runs to the end, as CommonMark has it.
 */
export function splitFencedCode(markdown: string): Array<{ code: boolean; text: string }> {
  const runs: Array<{ code: boolean; text: string }> = []
  const add = (code: boolean, line: string) => {
    const last = runs.at(-1)
    if (last && last.code === code) last.text += `\n${line}`
    else runs.push({ code, text: line })
  }
  let fence: Fence | undefined
  for (const line of markdown.split('\n')) {
    if (fence) {
      add(true, line)
      if (closesFence(line, fence)) fence = undefined
      continue
    }
    fence = openingFence(line)
    add(fence !== undefined, line)
  }
  return runs
}
