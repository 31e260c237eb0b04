import { describePostgresConformance } from './sql-conformance.ts'

await describePostgresConformance('postgres')
