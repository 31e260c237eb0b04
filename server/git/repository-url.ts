import { trimBoth, trimEnd } from '../../shared/trim.ts'

// A docs repository is named by a URL in config (`https://token@github.com/Acme/Docs.git`) and by `owner/name` in
// webhooks and host APIs. These read one into the other, in one place.

/** A URL's scheme and the `//` after it (`https://`, `git+ssh://`), as RFC 3986 writes a scheme. */
const SCHEME_SLASHES = /^[a-z][a-z0-9+.-]*:\/\//i

/** Drops `user:password@` from a repository URL, in case a config put a token there. */
export function withoutCredentials(repository: string): string {
  return repository.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
}

/**
 * The repository a URL's path names, as webhooks and host APIs write it: `/Acme/Docs.git/` → `Acme/Docs`, the
 * slashes around it and a `.git` at its end dropped. In code, not `/^\/+|\/+$|\.git$/g`: that pattern read the rest of
 * a run of slashes from each of them, quadratic in the run.
 */
export function repositoryName(pathname: string): string {
  const path = trimBoth(pathname, '/')
  return path.endsWith('.git') ? trimEnd(path.slice(0, -'.git'.length), '/') : path
}

/** `https://user@github.com/Acme/Docs.git/`, `git@github.com:acme/docs` and `github.com/acme/docs` are one repository. */
export function sameRepositoryUrl(a: string, b: string): boolean {
  const norm = (url: string) =>
    repositoryName(
      url
        .trim()
        .toLowerCase()
        .replace(SCHEME_SLASHES, '')
        .replace(/^[^@/]*@/, '')
        .replace(/:(?=[^/\d])/, '/'),
    )
  return norm(a) === norm(b)
}
