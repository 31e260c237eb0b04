import { WorkspacePathError } from './types.ts'

/**
 * Normalizes a path the model gave to a repository-relative one (`guides/x.mdx`), or throws WorkspacePathError:
 * absolute paths, `..`, backslashes, control characters and anything under `.git/` are refused. The workspace checks
 * again; checking here gives the model a clear message before any file is touched.
 */
export function confinePath(raw: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new WorkspacePathError(String(raw), 'the path is empty')
  const path = raw.trim()
  if (/[\u0000-\u001f]/.test(path)) throw new WorkspacePathError(path, 'control characters are not allowed')
  if (path.includes('\\')) throw new WorkspacePathError(path, 'use / as the separator')
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || path.startsWith('~')) {
    throw new WorkspacePathError(path, 'absolute paths are not allowed; give a path relative to the repository root')
  }
  const parts = path.split('/').filter((part) => part !== '' && part !== '.')
  if (parts.includes('..')) throw new WorkspacePathError(path, '".." would leave the repository')
  if (parts.some((part) => part.toLowerCase() === '.git')) throw new WorkspacePathError(path, 'files under .git/ are off limits')
  if (parts.length === 0) throw new WorkspacePathError(path, 'the path names the repository root, not a file')
  return parts.join('/')
}
