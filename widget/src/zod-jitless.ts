import { config } from 'zod/v4/core'

// zod (the AI SDK checks each stream chunk with it) compiles object schemas with `new Function` where it may, and its
// probe for that, run as each object schema is built, is a `script-src 'unsafe-eval'` (or Trusted Types) violation on
// every site with a Content-Security-Policy: a report to the site's owner on every open. Interpreted parsing is enough
// for a chat. Its own module, imported first by the panel, so it runs before any schema is built.
config({ jitless: true })
