export const SERVER_DIST: string
export const SERVER_ENTRY: string
/** True when a server or shared source, the lock file or the build script is newer than the last bundle. */
export function serverIsStale(): boolean
/** Bundles the server into server/dist/ (swapped in whole). */
export function buildServer(): Promise<void>
