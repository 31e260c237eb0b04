// Names and limits the console's browser code and the server share, in a module without zod (the app's first screen
// stays small).

/** The header every state-changing console request carries: a cross-site form or image cannot set it (CSRF). */
export const CONSOLE_HEADER = 'x-docent-console'
export const SESSION_COOKIE = 'docent_session'
/**
 * The organization a console tab shows, percent-encoded (a name may be any text, a header value only Latin-1): the
 * session cookie is the browser's, shared by every tab, and the server refuses (409) a tab acting in another
 * organization than the one it shows (see server/console/shown-organization.ts).
 */
export const ORGANIZATION_HEADER = 'x-docent-organization'

/** An automation's instructions, at most (the console counts them as they are typed; the API refuses more). */
export const MAX_INSTRUCTIONS_CHARS = 10_000
/** A custom automation's prompt, at most: a job prompt's limit (the console counts it as typed; the API refuses more). */
export const MAX_AUTOMATION_PROMPT_CHARS = 20_000
