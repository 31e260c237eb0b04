import { svg } from 'lit'
import { icon, sparkle } from './launcher-icons.ts'

/** The panel's inline icons (no icon font, no requests); the launcher's own is in launcher-icons.ts. */
export const icons = {
  sparkle,
  close: icon(svg`
    <path d="M18 6L6 18M6 6l12 12" />
  `),
  plus: icon(svg`
    <path d="M12 5v14M5 12h14" />
  `),
  send: icon(svg`
    <path d="M5 12h14M13 6l6 6-6 6" />
  `),
  stop: icon(svg`
    <rect x="6" y="6" width="12" height="12" rx="2" />
  `),
  retry: icon(svg`
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
    <path d="M3 3v5h5" />
  `),
  copy: icon(svg`
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V5a2 2 0 0 1 2-2h8" />
  `),
  up: icon(svg`
    <path
      d="M7 10v11H4V10zM7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.4 7A2 2 0 0 1 17.6 21H7" />
  `),
  down: icon(svg`
    <path
      d="M17 14V3h3v11zM17 14l-4 7a2 2 0 0 1-3-2l1-5H5a2 2 0 0 1-2-2.3l1.4-7A2 2 0 0 1 6.4 3H17" />
  `),
  page: icon(svg`
    <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
    <path d="M14 3v6h6" />
  `),
  quote: icon(svg`
    <path d="M4 6h16M4 12h10M4 18h7" />
  `),
  search: icon(svg`
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  `),
  history: icon(svg`
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
    <path d="M3 3v5h5M12 7v5l3 2" />
  `),
  trash: icon(svg`
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  `),
}
