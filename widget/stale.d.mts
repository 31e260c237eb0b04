/** True when a source of the widget is newer than the last build (or there is none). */
export function isStale(): boolean
