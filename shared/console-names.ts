// Names the console's browser code and the server share, in a module without zod (the app's first screen stays small).

/** The header every state-changing console request carries: a cross-site form or image cannot set it (CSRF). */
export const CONSOLE_HEADER = 'x-docent-console'
export const SESSION_COOKIE = 'docent_session'
