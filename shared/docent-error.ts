// Without zod, so that the widget's bundle can share the error base.

/**
 * Stable, machine-readable error codes. Callers branch on `code`; people read the message. The HTTP layer maps each
 * code to a status in one place (`server/http/errors.ts`); a code it does not know is a 500.
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  /** The request's body did not arrive in time (a slow client). */
  'request_timeout',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'internal',
  // The agent's: they end a run (the job's `error` carries the message) and never reach HTTP as such.
  /** A git remote or a pull-request host refused the credentials (401/403). */
  'authentication_failed',
  /** A git operation failed (network, protocol, unreadable repository); `data.gitCode` is isomorphic-git's code. */
  'git_failed',
  /** The remote refused the push (`data.reason`, e.g. not-fast-forward). */
  'push_rejected',
  /** The pull-request host's API failed (`data.status`). */
  'host_failed',
  /** A path outside the repository, naming git metadata, or outside the agent's writable paths. */
  'path_refused',
  /** A file tool refused the call (limits, missing file, ambiguous edit): the model sees why and can correct itself. */
  'tool_refused',
  /** The run was stopped from outside (`data.reason`: cancelled, lease-lost, time-limit, stopping). */
  'run_aborted',
  /** The configuration (file, environment or `createDocent` input) is invalid; the message names the field. */
  'invalid_config',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * The one base of Docent's errors, as isomorphic-git's errors are: a stable `code` and structured `data` beside the
 * message. Domain code throws these (or a subclass with a narrower meaning); it never speaks HTTP.
 */
export class DocentError<Code extends string = ErrorCode> extends Error {
  override name = 'DocentError'
  constructor(
    readonly code: Code,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message)
  }
}
