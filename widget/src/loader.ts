// The script-tag entry (`docent.js`), a classic script: it reads its own `data-*` attributes and loads the
// widget's ES module from next to itself. Until that arrives, `window.Docent` queues calls (init, on, open…) and
// the module replays them. Kept free of imports so it runs in any page without type="module".
;(() => {
  const script = document.currentScript as HTMLScriptElement | null
  const options: Record<string, string | undefined> = {
    ...(script?.dataset ?? {}),
  }
  const base = script?.src ? new URL('.', script.src).href : new URL('/widget/', location.href).href
  const w = window as unknown as {
    Docent?: Record<string, unknown> & { q?: unknown[] }
  }
  if (!w.Docent) {
    const queue: unknown[] = []
    const stub: Record<string, unknown> & { q: unknown[] } = { q: queue }
    for (const name of ['init', 'update', 'destroy', 'open', 'close', 'ask', 'reset', 'on', 'off']) {
      stub[name] = (...args: unknown[]) => new Promise((resolve) => queue.push([name, args, resolve]))
    }
    w.Docent = stub
  }
  // The tag is `async` (a hung Docent server must not hold up the page's own DOMContentLoaded code), so this may run
  // before the page is parsed: the module downloads at once and mounts once the body it goes into is there. A dynamic
  // import delays neither DOMContentLoaded nor load; only this small file, as any async script, delays load.
  const parsed = new Promise((resolve) =>
    document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', resolve, { once: true }) : resolve(null),
  )
  Promise.all([import(/* @vite-ignore */ `${base}docent.mjs`), parsed]).then(
    ([widget]: [{ mount: (options: object) => void; expose: () => void }, unknown]) =>
      // `data-domain` mounts at once; without it the page calls `Docent.init({...})` itself.
      options.domain ? widget.mount(options) : widget.expose(),
    (error: unknown) => console.error('Docent: the widget failed to load', error),
  )
})()
