import { git } from '../../git/isomorphic.ts'
import { memoryFs } from '../../git/memory-fs.ts'
import { fetchHttpClient, reportingCuts } from '../../git/http-client.ts'
import { trimBoth } from '../../../shared/trim.ts'
import { readDocsTree } from './git-tree.ts'
import type { DocsSnapshot, DocsSource } from './types.ts'

export interface GitSourceOptions {
  url: string
  /** Branch or tag. */
  ref: string
  /** Sub-folder holding docs.json and the pages ('' for the repository root). */
  root: string
  token?: string
  fetch: typeof fetch
}

/**
 * Docs from a git repository: a shallow, single-branch clone into an in-memory fs, reading only the docs files
 * (no checkout of images and other assets). The ref's commit id is the revision.
 */
export function gitSource(options: GitSourceOptions): DocsSource {
  // Basic auth with the token as password is what GitHub, GitLab, Gitea and Bitbucket all accept for HTTPS git.
  const headers: Record<string, string> = options.token ? { authorization: `Basic ${btoa(`x-access-token:${options.token}`)}` } : {}
  const root = trimBoth(options.root, '/')
  return {
    async currentRevision() {
      // A client per call: it keeps why it cut an answer short, for as long as it lives (see reportingCuts).
      const http = fetchHttpClient(options.fetch)
      const refs = await reportingCuts(http, () =>
        git.listServerRefs({ http, url: options.url, headers, protocolVersion: 1, peelTags: true }),
      )
      const wanted = [`refs/heads/${options.ref}`, `refs/tags/${options.ref}`, options.ref]
      for (const name of wanted) {
        const ref = refs.find((r) => r.ref === name)
        if (ref) return ref.peeled ?? ref.oid
      }
      throw new Error(`docs repository has no ref "${options.ref}"`)
    },
    async load(): Promise<DocsSnapshot> {
      const fs = memoryFs()
      const dir = '/docs'
      const http = fetchHttpClient(options.fetch)
      await reportingCuts(http, () =>
        git
          .clone({
            fs,
            http,
            dir,
            url: options.url,
            ref: options.ref,
            headers,
            singleBranch: true,
            depth: 1,
            noTags: true,
            noCheckout: true,
          })
          .catch((error: unknown) => {
            // isomorphic-git reads the remote's HEAD even when given a branch, and fails when it names no branch.
            if ((error as Error).message === 'Could not find HEAD.') {
              throw new Error(
                `the docs repository's HEAD names no branch (it must, even with ref "${options.ref}"): set its default branch to one that exists`,
              )
            }
            throw error
          }),
      )
      const oid = await git.resolveRef({ fs, dir, ref: 'HEAD' })
      return { ...(await readDocsTree({ fs, gitdir: `${dir}/.git` }, oid, root)), revision: oid }
    },
  }
}
