import { WorkspacePathError } from './errors.ts'

/**
 * A repository-relative file path (`guides/setup.mdx`), or WorkspacePathError: empty, absolute, `..`, backslashes,
 * control characters and anything under `.git/` are refused, so no caller can reach outside the docs tree.
 */
export function repositoryPath(raw: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new WorkspacePathError(String(raw), 'the path is empty')
  const path = raw.trim()
  // deno-lint-ignore no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new WorkspacePathError(path, 'control characters are not allowed')
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
