import { fileURLToPath } from 'node:url'
import { defineConfig, type InlineConfig, type Plugin } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * Minifies the CSS inside Lit's css`…` templates (comments, indentation, spaces around braces and semicolons), which
 * the bundler keeps as written. Only templates without `${}` are touched.
 */
export function minifyLitCss(code: string): string {
  return code.replace(/\bcss`([^`$\\]*)`/g, (_whole, text: string) => {
    const minified = text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,>])\s*/g, '$1')
      .replace(/:\s+/g, ':')
      .replace(/;}/g, '}')
      .trim()
    return `css\`${minified}\``
  })
}

const litCss: Plugin = {
  name: 'docent-lit-css',
  transform(code, id) {
    return id.startsWith(`${root}src/`) && id.endsWith('styles.ts') ? { code: minifyLitCss(code), map: null } : null
  },
}

/**
 * The widget as ES modules: `docent.mjs` (the launcher: Lit and `<docent-chat>`, also the ESM entry for bundlers)
 * and lazy chunks for the panel. `loaderConfig` builds `docent.js`, the classic script a docs page adds.
 */
export default defineConfig({
  root,
  logLevel: 'warn',
  plugins: [litCss],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    reportCompressedSize: false,
    // Library mode: Vite then leaves dynamic imports as they are, without its preload helper (1.2 KB the launcher
    // would carry for nothing: the widget has no CSS files and preloads nothing). Minified fully all the same.
    lib: {
      entry: `${root}src/embed.ts`,
      formats: ['es'],
      fileName: () => 'docent.mjs',
    },
    rolldownOptions: {
      output: {
        minify: true,
        // Lit's shared chunk would otherwise be named after whichever small module the bundler put in it first.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/lit-html/')) ? 'chunks/lit-[hash].mjs' : 'chunks/[name]-[hash].mjs',
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
    lib: {
      entry: `${root}src/loader.ts`,
      formats: ['iife'],
      name: 'DocentLoader',
      fileName: () => 'docent.js',
    },
  },
}
