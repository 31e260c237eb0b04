// Loaded into the server under test by bench/server-memory (NODE_OPTIONS=--import): on SIGUSR2 the process prints its
// memory parts as one line on stderr, so the bench reads them from the real server without an endpoint of its own.
process.on('SIGUSR2', () => {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
  process.stderr.write(`docent-memory ${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers })}\n`)
})
