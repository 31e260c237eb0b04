import { z } from 'zod'
import { AgentJob } from './agent.ts'

/** What an admin key may do: `write` (everything) or `read` (every GET; a change is refused with 403). */
export const KeyScope = z.enum(['read', 'write'])
export type KeyScope = z.infer<typeof KeyScope>

/**
 * `POST /console/session`: exchange an admin key for a session cookie. Strict: a field beyond `key` is a mistake, or
 * the filler of a forged `text/plain` form (`{"key":"...","x":"="}`), never something to ignore.
 */
export const SignInBody = z
  .object({ key: z.string().min(1).max(300) })
  .strict()
  .meta({ id: 'SignInBody' })
export type SignInBody = z.infer<typeof SignInBody>

export const ConsoleProject = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    /** Whether the project has an agent (jobs, gap fixes). */
    agent: z.boolean(),
  })
  .meta({ id: 'ConsoleProject' })
export type ConsoleProject = z.infer<typeof ConsoleProject>

/** Who is signed in: the organization, what the key may do, and the projects to switch between. */
export const ConsoleSession = z
  .object({
    organization: z.string(),
    scope: KeyScope,
    key: z.object({ id: z.string(), name: z.string().nullable(), hint: z.string() }),
    /** When the session ends (with a Bearer key: when the key expires, or null). */
    expiresAt: z.iso.datetime().nullable(),
    projects: z.array(ConsoleProject),
  })
  .meta({ id: 'ConsoleSession' })
export type ConsoleSession = z.infer<typeof ConsoleSession>

export const ProjectList = z.object({ projects: z.array(ConsoleProject) }).meta({ id: 'ProjectList' })
export type ProjectList = z.infer<typeof ProjectList>

// Keys --------------------------------------------------------------------------------------------------------

export const ApiKey = z
  .object({
    id: z.string(),
    kind: z.enum(['admin', 'assistant']),
    name: z.string().nullable(),
    scope: KeyScope,
    /** Assistant keys: the project they were made for. */
    projectId: z.string().nullable(),
    /** Prefix and last four characters (`svc_…a1B2`): the key itself is shown once, at creation. */
    hint: z.string(),
    status: z.enum(['active', 'expired', 'revoked']),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey' })
export type ApiKey = z.infer<typeof ApiKey>

export const ApiKeyList = z.object({ keys: z.array(ApiKey) }).meta({ id: 'ApiKeyList' })
export type ApiKeyList = z.infer<typeof ApiKeyList>

export const CreateKeyBody = z
  .object({
    kind: z.enum(['admin', 'assistant']).default('admin'),
    name: z.string().trim().min(1).max(100),
    scope: KeyScope.default('write'),
    /** Assistant keys only, and required for them: a project of the organization (an admin key is organization-wide). */
    projectId: z.string().max(64).optional(),
    /** Days until the key stops working; none: it never expires. */
    expiresInDays: z.number().int().min(1).max(3650).nullable().optional(),
  })
  .meta({ id: 'CreateKeyBody' })
export type CreateKeyBody = z.input<typeof CreateKeyBody>

export const CreatedKey = z
  .object({ key: ApiKey, secret: z.string().describe('the key itself: shown this once, never again') })
  .meta({ id: 'CreatedKey' })
export type CreatedKey = z.infer<typeof CreatedKey>

// Project -----------------------------------------------------------------------------------------------------

export const ProjectStatus = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    organization: z.string(),
    siteUrl: z.string().nullable(),
    /**
     * Where readers find the pages that source links point to: the project's `siteUrl`, the docs site Docent serves
     * (one project's: the first without a `siteUrl`, when its docs are public), or nowhere, and why.
     */
    site: z.object({
      servedBy: z.enum(['external', 'docent', 'none']),
      url: z.string().nullable(),
      /** Why nothing serves the pages: the docs need a key, or Docent's site is another project's. */
      why: z.enum(['private', 'another-project']).nullable(),
    }),
    docs: z.object({
      kind: z.enum(['directory', 'git']),
      /** The folder, or the repository URL without credentials. */
      location: z.string(),
      ref: z.string().nullable(),
      revision: z.string().nullable(),
      pages: z.number().int(),
      sections: z.number().int(),
      loadedAt: z.iso.datetime().nullable(),
      loadMs: z.number().nullable(),
      checkedAt: z.iso.datetime().nullable(),
      /** Why the last load or reload failed (the previous docs keep answering); null when it worked. */
      error: z.string().nullable(),
      /** Pages that are not valid MDX and were read as plain markdown (a docs site would fail to render them). */
      notMdx: z.array(z.string()),
      /**
       * Files left out of the index or read in part, and why, in words for the docs team (a link, not UTF-8, longer
       * than 2,000,000 characters, over the parse time budget, the same page as another file, broken frontmatter).
       */
      problems: z.array(z.object({ file: z.string(), problem: z.string() })),
    }),
    model: z.object({
      provider: z.enum(['offline', 'openai']),
      answer: z.string(),
      agent: z.string(),
      embedding: z.string().nullable(),
    }),
    agent: z
      .object({
        repository: z.string(),
        ref: z.string(),
        host: z.enum(['local', 'github', 'gitlab']),
        /** GitHub `owner/name`, GitLab project, or null for the local host (pull requests at /review/{jobId}). */
        target: z.string().nullable(),
      })
      .nullable(),
    /** `public`: no key needed (`docs.public`, the one setting for every way of reading the docs). */
    mcp: z.object({ path: z.string(), public: z.boolean() }),
  })
  .meta({ id: 'ProjectStatus' })
export type ProjectStatus = z.infer<typeof ProjectStatus>

// Agent: the console's job list ---------------------------------------------------------------------------------

export const ConsoleJob = AgentJob.extend({
  /** The prompt the job was created with. */
  prompt: z.string().nullable(),
  followUps: z.number().int(),
  updatedAt: z.iso.datetime(),
}).meta({ id: 'ConsoleJob' })
export type ConsoleJob = z.infer<typeof ConsoleJob>

export const ConsoleJobList = z.object({ jobs: z.array(ConsoleJob), nextCursor: z.string().nullable() }).meta({ id: 'ConsoleJobList' })
export type ConsoleJobList = z.infer<typeof ConsoleJobList>

export { CONSOLE_HEADER, SESSION_COOKIE } from './console-names.ts'
