import { describePostgresConformance } from './sql-conformance.ts'

// The same SQL through the porsager driver under Deno.
await describePostgresConformance('postgres on deno')
