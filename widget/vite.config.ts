import { fileURLToPath } from 'node:url'
import { defineConfig, type InlineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The widget as ES modules: `docent.mjs` (the launcher: Lit and `<docent-chat>`, also the ESM entry for bundlers)
 * and lazy chunks for the panel. `loaderConfig` builds `docent.js`, the classic script a docs page adds.
 */
export default defineConfig({
  root,
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: { docent: `${root}src/embed.ts` },
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: 'chunks/[name]-[hash].mjs',
      },
    },
  },
})

export const loaderConfig: InlineConfig = {
  root,
  logLevel: 'warn',
  configFile: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    reportCompressedSize: false,
    lib: { entry: `${root}src/loader.ts`, formats: ['iife'], name: 'DocentLoader', fileName: () => 'docent.js' },
  },
}
