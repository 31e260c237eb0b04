import { describePgliteConformance } from './sql-conformance.ts'

// The embedded default store as `npm run start:deno` opens it: PGlite under Deno (needs --allow-read/--allow-write).
await describePgliteConformance('pglite on deno')
