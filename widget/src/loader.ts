// The script-tag entry (`docent.js`), a classic script: it reads its own `data-*` attributes and loads the
// widget's ES module from next to itself. Kept free of imports so it runs in any page without type="module".
;(() => {
  const script = document.currentScript as HTMLScriptElement | null
  const options = { ...(script?.dataset ?? {}) }
  const base = script?.src ? new URL('.', script.src).href : new URL('/widget/', location.href).href
  const start = () =>
    import(/* @vite-ignore */ `${base}docent.mjs`).then(
      (widget: { mount: (options: object) => void }) => widget.mount(options),
      (error: unknown) => console.error('Docent: the widget failed to load', error),
    )
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true })
  else void start()
})()
