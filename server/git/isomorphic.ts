// isomorphic-git, imported on first use. It and what it bundles (pako, diff3, async-lock) are about 600 KB of
// JavaScript, which the server needs once it reads or writes a repository, not to start (bench/startup). Every
// function of its API that Docent calls is asynchronous, so each is a function that loads the library and calls it.
type IsomorphicGit = typeof import('isomorphic-git').default

let loading: Promise<IsomorphicGit> | undefined
const load = () => (loading ??= import('isomorphic-git').then((module) => module.default))

function lazy<Name extends keyof IsomorphicGit>(name: Name): IsomorphicGit[Name] {
  const call = async (...args: unknown[]) => ((await load())[name] as (...args: unknown[]) => unknown)(...args)
  return call as IsomorphicGit[Name]
}

/** The part of isomorphic-git's API Docent uses, with isomorphic-git's own signatures. */
export const git = {
  clone: lazy('clone'),
  fetch: lazy('fetch'),
  findMergeBase: lazy('findMergeBase'),
  init: lazy('init'),
  isDescendent: lazy('isDescendent'),
  listFiles: lazy('listFiles'),
  listServerRefs: lazy('listServerRefs'),
  merge: lazy('merge'),
  push: lazy('push'),
  readBlob: lazy('readBlob'),
  readCommit: lazy('readCommit'),
  readTree: lazy('readTree'),
  resolveRef: lazy('resolveRef'),
  writeBlob: lazy('writeBlob'),
  writeCommit: lazy('writeCommit'),
  writeRef: lazy('writeRef'),
  writeTree: lazy('writeTree'),
}
