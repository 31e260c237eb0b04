// What one model reply may do; a module of its own, as the offline editor (loaded with the server) plans by it.

/**
 * Most tool calls one model reply may make. The step limit counts replies, not calls: one reply of 10,000 reads of a
 * large file made gigabytes of results for the next request (the server ran out of memory), and 3,000 searches held
 * the server for minutes. Calls past it are refused, each with a message that says why.
 */
export const MAX_CALLS_PER_STEP = 50
/** Most characters the tool results of one reply may hold (read_file returns up to MAX_READ_CHARS at a time). */
export const MAX_STEP_RESULT_CHARS = 1_000_000
/** Most characters of the summary a run's `finish` reports (its first line is the commit title). */
export const MAX_SUMMARY_CHARS = 10_000
