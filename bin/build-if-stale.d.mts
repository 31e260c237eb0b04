/** True when a source of the app in `root` is newer than its last build (or there is none). */
export function isStale(root: string): boolean
