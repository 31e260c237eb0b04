// Builds the embedded host's repository `name` under a data dir from a docs folder, as a server's first job would:
// `node --import tsx build-local-repo.ts <dataDir> <docsDir> <name>`. The crash test kills it halfway.
import { createDiskRepositories } from '../../../server/agent/hosts/local-disk.ts'

const [dataDir, docsDir, name] = process.argv.slice(2) as [string, string, string]
const repositories = createDiskRepositories({ dataDir, seedDirectory: () => docsDir, branch: () => 'main', now: () => new Date() })
await repositories.open(name)
console.log('built')
