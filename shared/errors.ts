import { z } from 'zod'

/** Every error the API returns has this body. */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: 'Error' })
export type ErrorBody = z.infer<typeof ErrorBody>

/**
 * Turns zod issues into one readable sentence that names the offending field first,
 * e.g. `currentPath: must be at most 200 characters`.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.map(String).join('.')
      return field ? `${field}: ${describeIssue(issue)}` : describeIssue(issue)
    })
    .join('; ')
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
        ? `must have at most ${issue.maximum} items`
        : `must be at most ${issue.maximum}`
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
        ? `must have at least ${issue.minimum} items`
        : `must be at least ${issue.minimum}`
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected}`
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`
    default:
      return issue.message.replace(/^Invalid input: /, '').toLowerCase()
  }
}
