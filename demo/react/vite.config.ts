import react from '@vitejs/plugin-react'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, loadEnv } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * `npm run dev` works with no setup next to a running `npm start`: the dev server forwards `/discovery/*` to the
 * Docent server (`DOCENT_URL`, default http://127.0.0.1:8787), so the browser needs no CORS grant, and the assistant
 * key defaults to the one `npm start` keeps for its demo site. A build (`base: './'`) works from any folder or host.
 */
export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, root, ''), ...process.env }
  const target = (env.DOCENT_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '')
  const keptKey = fileURLToPath(new URL('../../.docent/site-key-demo', import.meta.url))
  const defaultKey =
    env.VITE_DOCENT_ASSISTANT_KEY || (mode !== 'production' && existsSync(keptKey) ? readFileSync(keptKey, 'utf8').trim() : '')
  return {
    root,
    base: './',
    plugins: [react()],
    define: { __DOCENT_DEFAULT_KEY__: JSON.stringify(defaultKey) },
    server: { proxy: { '/discovery': { target, changeOrigin: true } } },
    preview: { proxy: { '/discovery': { target, changeOrigin: true } } },
    build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: false },
  }
})
