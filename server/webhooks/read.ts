/** Reading a host's JSON payload field by field: a field of the wrong type reads as missing, never as a crash. */
export type Json = Record<string, unknown>

export const record = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})
export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
export const strings = (value: unknown): string[] => list(value).filter((item): item is string => typeof item === 'string')

/** A push's commits as both hosts send them (`id`, `message`, `url`, `author`, `added`/`modified`/`removed`). */
export function pushedCommits(value: unknown) {
  return list(value).flatMap((item) => {
    const commit = record(item)
    const id = text(commit.id)
    if (!id) return []
    const author = record(commit.author)
    return [
      {
        id,
        message: text(commit.message) ?? '',
        url: text(commit.url),
        author: text(author.email) !== null ? { name: text(author.name) ?? '', email: text(author.email)! } : null,
        files: [...strings(commit.added), ...strings(commit.modified), ...strings(commit.removed)],
      },
    ]
  })
}

/** A deleted branch's push moves it to this id: nothing was pushed to read. */
export const DELETED = /^0{40}$/
