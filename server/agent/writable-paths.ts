import { WorkspacePathError } from '../git/errors.ts'

/**
 * Which files the agent may write, create or delete: the project's `agent.writablePaths` globs (`*` within a name,
 * `**` for any folders, `?`, `{a,b}`), matched without regular expressions. Names that start with a dot match only a
 * pattern that spells the dot, and some names are never writable whatever the patterns say: git's own files and
 * folders (`.git*`: `.github/` workflows, `.gitlab-ci.yml`, `.gitmodules`, `.gitattributes`, `.gitignore`) and hook
 * managers (`.husky/`). A path reaching here was already checked by `repositoryPath` (git's path rules).
 */
export interface WritablePaths {
  /** The path itself, or WorkspacePathError naming why the agent may not write it. */
  check(path: string): string
  readonly patterns: readonly string[]
}

const NEVER = (part: string) => {
  const name = part.toLowerCase()
  return name.startsWith('.git') || name === '.husky'
}

export function writablePaths(patterns: readonly string[]): WritablePaths {
  const compiled = patterns.flatMap(expandBraces).map((pattern) => pattern.split('/').filter(Boolean))
  return {
    patterns,
    check(path) {
      const parts = path.split('/')
      const never = parts.find(NEVER)
      if (never) throw new WorkspacePathError(path, `${never} is git's or CI's, never the docs agent's to write`)
      if (!compiled.some((pattern) => matchParts(pattern, parts))) {
        throw new WorkspacePathError(path, `the agent may write only documentation files (${patterns.join(', ')})`)
      }
      return path
    },
  }
}

/** `a/{b,c}/*.{md,mdx}` → four patterns. Braces do not nest. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{')
  const close = open < 0 ? -1 : pattern.indexOf('}', open)
  if (close < 0) return [pattern]
  const head = pattern.slice(0, open)
  const tail = pattern.slice(close + 1)
  return pattern
    .slice(open + 1, close)
    .split(',')
    .flatMap((choice) => expandBraces(`${head}${choice}${tail}`))
}

/** Path segments against pattern segments; `**` takes any number of segments (none starting with a dot). */
function matchParts(pattern: string[], parts: string[]): boolean {
  // reach[j]: the first i pattern segments can match the first j path segments. O(pattern × path).
  let reach = parts.map((_, j) => j === 0)
  reach.push(parts.length === 0)
  for (const segment of pattern) {
    const next = new Array<boolean>(parts.length + 1).fill(false)
    for (let j = 0; j <= parts.length; j++) {
      if (!reach[j]) continue
      if (segment === '**') {
        next[j] = true
        for (let k = j; k < parts.length && !parts[k]!.startsWith('.'); k++) next[k + 1] = true
      } else if (j < parts.length && matchName(segment, parts[j]!)) {
        next[j + 1] = true
      }
    }
    reach = next
  }
  return reach[parts.length] === true
}

/** One name against one pattern segment (`*`, `?`); a leading dot must be matched literally. */
function matchName(pattern: string, name: string): boolean {
  if (name.startsWith('.') && !pattern.startsWith('.')) return false
  // The classic two-pointer wildcard match: linear in practice, O(pattern × name) at worst, both short.
  let p = 0
  let n = 0
  let star = -1
  let mark = 0
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p++
      n++
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++
      mark = n
    } else if (star >= 0) {
      p = star + 1
      n = ++mark
    } else {
      return false
    }
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}
