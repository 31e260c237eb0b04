import { describeStoreConformance } from './conformance.ts'
import { MemoryStore } from './memory.ts'

describeStoreConformance('memory', async () => new MemoryStore())
