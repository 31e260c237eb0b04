import { describePgliteConformance } from './sql-conformance.ts'

await describePgliteConformance('pglite')
