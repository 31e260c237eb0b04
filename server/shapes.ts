// Shapes of identifiers that arrive from outside (URLs, forms, webhooks, git). Each length is checked apart from its
// character pattern: recheck proves a `+` repeat linear by its automaton, but leaves a counted repeat such as {1,100} or
// {40} to its fuzzer, which has called such a pattern unsafe on a loaded machine (see keys.ts).

/** A git object id as git prints it: 40 lowercase hex digits. */
export const isCommitId = (value: string): boolean => value.length === 40 && /^[0-9a-f]+$/.test(value)

/** `min` to `max` URL-safe characters (letters, digits, `_` and `-`, as base64url and our ids use). */
const isUrlSafe = (value: string, min: number, max: number): boolean =>
  value.length >= min && value.length <= max && /^[A-Za-z0-9_-]+$/.test(value)

/** Whether `value` can be a job id (the ids we make, or a caller's own): 1-100 URL-safe characters. */
export const isJobIdShape = (value: string): boolean => isUrlSafe(value, 1, 100)

/** Whether `value` can be a console session id: 32 random bytes in base64url, as sessions are made. */
export const isSessionIdShape = (value: string): boolean => isUrlSafe(value, 43, 43)
