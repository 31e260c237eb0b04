import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

test('an unreachable or malformed DATABASE_URL fails start-up with a message naming it, without its password', async () => {
  const port = await closedPort()
  const error = await openPostgresStore(`postgres://docent:s3cret@127.0.0.1:${port}/docent`).catch((caught: Error) => caught)
  expect(error).toBeInstanceOf(Error)
  expect((error as Error).message).toContain(`could not open the PostgreSQL store at postgres://docent:***@127.0.0.1:${port}/docent`)
  expect((error as Error).message).not.toContain('s3cret')
  // libpq and postgres.js read a password from the query string too.
  const query = await openPostgresStore(`postgres://docent@127.0.0.1:${port}/docent?password=qu3ry&sslpassword=k3y&sslmode=disable`).catch(
    (caught: Error) => caught,
  )
  expect((query as Error).message).toContain('password=***')
  expect((query as Error).message).toContain('sslmode=disable')
  expect((query as Error).message).not.toMatch(/qu3ry|k3y/)
  await expect(openPostgresStore('not a url')).rejects.toThrow('could not open the PostgreSQL store at DATABASE_URL (not a valid URL)')
})
