/** Where the app is: `/console/{project}/{screen}/{id}?query`. */
export interface Place {
  project: string | null
  screen: string | null
  id: string | null
  search: URLSearchParams
}

export const BASE = '/console'

export function placeOf(location: { pathname: string; search: string }): Place {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : ''
  const [project = null, screen = null, id = null] = rest
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part)
      } catch {
        return part
      }
    })
  return { project, screen, id, search: new URLSearchParams(location.search) }
}

export function hrefOf(project: string, screen: string, id?: string | null, search?: URLSearchParams | string): string {
  const query = search ? (typeof search === 'string' ? search : search.toString()) : ''
  return `${BASE}/${encodeURIComponent(project)}/${screen}${id ? `/${encodeURIComponent(id)}` : ''}${query ? `?${query.replace(/^\?/, '')}` : ''}`
}

/** Moves within the app without a page load; the app listens for `docent-navigate`. */
export function navigate(href: string, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', href)
  else history.pushState(null, '', href)
  window.dispatchEvent(new Event('docent-navigate'))
}
