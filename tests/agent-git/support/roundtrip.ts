// Run by runtimes.test.ts under Deno and Bun: one workspace round trip against the URL given, printing the commit id.
import { createWorkspaceFactory } from '../../../server/git/factory.ts'

const [url, branch, jobId] = process.argv.slice(2) as [string, string, string]
const workspace = await createWorkspaceFactory({ fetch }).open({ repository: url, ref: 'main', preferBranch: branch, jobId })
const text = await workspace.readFile('index.mdx')
await workspace.writeFile('index.mdx', `${text}\nEdited on ${'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node'}.\n`)
await workspace.writeFile(`added-${jobId}.mdx`, '# Added\n')
const commit = await workspace.commit({ message: 'Round trip', author: { name: 'Docent', email: 'docent@example.com' } })
await workspace.push(branch)
console.log(`COMMIT ${commit}`)
