import { WorkspacePathError } from './errors.ts'

const MAX_PATH = 4_096

// Code points HFS+ ignores in file names, so `.g\u200cit` is `.git` on a Mac (git's utf8.c next_hfs_char).
const HFS_IGNORED = new Set([
  0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff,
])

/**
 * A repository-relative file path (`guides/setup.mdx`), or WorkspacePathError: empty, absolute, `..`, backslashes,
 * control characters, and any component git itself refuses to check out (read-cache.c verify_path) are refused, so no
 * caller can reach outside the docs tree or write what another checkout would read as `.git`.
 */
export function repositoryPath(raw: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new WorkspacePathError(String(raw), 'the path is empty')
  const path = raw.trim()
  if (path.length > MAX_PATH) throw new WorkspacePathError(`${path.slice(0, 80)}…`, `paths are at most ${MAX_PATH} characters`)
  // deno-lint-ignore no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new WorkspacePathError(path, 'control characters are not allowed')
  if (path.includes('\\')) throw new WorkspacePathError(path, 'use / as the separator')
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || path.startsWith('~')) {
    throw new WorkspacePathError(path, 'absolute paths are not allowed; give a path relative to the repository root')
  }
  const parts = path.split('/').filter((part) => part !== '' && part !== '.')
  if (parts.includes('..')) throw new WorkspacePathError(path, '".." would leave the repository')
  if (parts.length === 0) throw new WorkspacePathError(path, 'the path names the repository root, not a file')
  for (const part of parts) {
    const reason = unsafeComponent(part)
    if (reason) throw new WorkspacePathError(path, reason)
  }
  return parts.join('/')
}

/**
 * A path a file may be written at: a repositoryPath whose every component a Windows checkout can hold too. Windows
 * refuses device names (`con`, `aux.mdx`, `com1.md`: the name up to its first dot) and `< > " | ? *`, and git for
 * Windows then cannot check out the branch at all: a writer on Windows could not open the agent's pull request. Reading
 * and deleting such a file that a repository holds already stays possible (repositoryPath).
 */
export function writablePath(raw: string): string {
  const path = repositoryPath(raw)
  for (const part of path.split('/')) {
    const reason = windowsUnsafe(part)
    if (reason) throw new WorkspacePathError(path, reason)
  }
  return path
}

/**
 * The longest name one folder may hold: 255 bytes on Linux (ext4's NAME_MAX; `git checkout` fails with "File name too
 * long"), 255 UTF-16 units on macOS and Windows.
 */
const MAX_NAME_BYTES = 255

/**
 * The longest path of a new file. Windows counts the checkout's own folder into its 260-character MAX_PATH, and git for
 * Windows refuses a longer path unless `core.longpaths` is set: 200 leaves the folder 60.
 */
export const MAX_NEW_PATH = 200

/**
 * How macOS and Windows compare names: without case, and APFS/HFS+ without Unicode normalization (`é` as one code point
 * or as `e` and a combining accent). Two names that fold alike are one file there, and a checkout keeps only one.
 */
const folded = (name: string) => name.normalize('NFC').toLowerCase()

/**
 * Why a file may not be created at `path` (a writablePath) in a tree of `existing` files, or null: a name too long for
 * a checkout, or a file or folder name that macOS or Windows would read as one already there (`Index.mdx` beside
 * `index.mdx`, `Guides/` beside `guides/`, NFC beside NFD). `existing` lists the files the tree holds now.
 */
export function newPathProblem(path: string, existing: Iterable<string>): string | null {
  const long = path.split('/').find((part) => new TextEncoder().encode(part).byteLength > MAX_NAME_BYTES)
  if (long !== undefined)
    return `a name may be at most ${MAX_NAME_BYTES} bytes ("${long.slice(0, 40)}…" is longer): a checkout cannot hold it`
  if (path.length > MAX_NEW_PATH)
    return `a new file's path may be at most ${MAX_NEW_PATH} characters (Windows checkouts fail on longer ones)`
  const names = new Map<string, string>()
  for (const file of existing) {
    for (const prefix of prefixesOf(file)) if (!names.has(prefix)) names.set(prefix, prefix)
  }
  const byFold = new Map<string, string>()
  for (const name of names.keys()) if (!byFold.has(folded(name))) byFold.set(folded(name), name)
  for (const prefix of prefixesOf(path)) {
    if (names.has(prefix)) continue
    const alias = byFold.get(folded(prefix))
    if (alias !== undefined) {
      return `"${prefix}" would be the same name as "${alias}" on macOS and Windows (they ignore case and Unicode normalization); use "${alias}"`
    }
  }
  return null
}

/** `a`, `a/b`, `a/b/c.mdx` for `a/b/c.mdx`: the folders above a file, then the file. */
function prefixesOf(path: string): string[] {
  const parts = path.split('/')
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
}

/** Windows' reserved device names, whatever the case (`COM¹` is one too). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i

function windowsUnsafe(part: string): string | null {
  if (/[<>"|?*]/.test(part)) return 'a name may not contain < > " | ? or * (Windows refuses them)'
  const base = (part.split('.')[0] ?? '').trimEnd()
  if (WINDOWS_DEVICE.test(base)) return `a name may not be a Windows device name (${base.toUpperCase()}), with or without an extension`
  return null
}

/**
 * Why git would refuse this path component on some checkout, or null. NTFS drops trailing dots and spaces and reads
 * `name:stream` as a stream of `name`; it also answers to 8.3 short names (`GIT~1`); HFS+ ignores some invisible code
 * points. Each makes a name that is not `.git` here into `.git` there (git's is_ntfs_dotgit, is_hfs_dotgit).
 */
export function unsafeComponent(part: string): string | null {
  if (isDotGit(part)) return 'files under .git/ are off limits (git reads this name as .git on some systems)'
  if (part.endsWith('.') || part.endsWith(' ')) return 'a name may not end with a dot or a space (Windows drops them)'
  if (part.includes(':')) return 'a name may not contain ":" (Windows reads it as a file stream)'
  if ([...part].some((char) => HFS_IGNORED.has(char.codePointAt(0)!))) {
    return 'a name may not contain invisible formatting characters (macOS ignores them)'
  }
  if (isShortName(part)) return 'a name may not look like a Windows 8.3 short name (e.g. GIT~1), which can stand for another file'
  return null
}

/** `.git` as NTFS or HFS+ would read the name: case-insensitive, ignoring what they ignore (git's path.c, utf8.c). */
export function isDotGit(part: string): boolean {
  const hfs = [...part]
    .filter((char) => !HFS_IGNORED.has(char.codePointAt(0)!))
    .join('')
    .toLowerCase()
  if (hfs === '.git') return true
  const lower = part.toLowerCase()
  const rest = lower.startsWith('.git') ? lower.slice(4) : lower.startsWith('git~1') ? lower.slice(5) : null
  if (rest === null) return false
  // NTFS: `.git` followed only by spaces and dots, up to the end or a `:stream` suffix.
  for (const char of rest) {
    if (char === ':') return true
    if (char !== '.' && char !== ' ') return false
  }
  return true
}

/** `NAME~N[.EXT]` with a base of at most six characters: the shape of an NTFS 8.3 short name. */
function isShortName(part: string): boolean {
  const tilde = part.indexOf('~')
  if (tilde < 1 || tilde > 6) return false
  const dot = part.indexOf('.', tilde)
  const digits = part.slice(tilde + 1, dot < 0 ? undefined : dot)
  return digits.length > 0 && [...digits].every((char) => char >= '0' && char <= '9') && (dot < 0 || part.length - dot <= 4)
}
