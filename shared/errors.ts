import { z } from 'zod'

export { DocentError, ERROR_CODES, type ErrorCode } from './docent-error.ts'

/** Every error the API returns has this body: the message for people, the code for programs. */
export const ErrorBody = z
  .object({
    error: z.string().describe('what went wrong, naming the field for a validation error'),
    code: z.string().describe('stable machine-readable code, e.g. invalid_request, rate_limited').optional(),
  })
  .meta({ id: 'Error' })
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
  // A schema's own `error` message says it best; zod's defaults all start with "Invalid" or "Too".
  if (!/^(Invalid|Too |Unrecognized)/.test(issue.message)) return issue.message
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} item${Number(issue.maximum) === 1 ? '' : 's'}`
          : `must be at most ${issue.maximum}`
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) === 1
          ? 'must not be empty'
          : `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`
          : `must be at least ${issue.minimum}`
    case 'invalid_type':
      // zod reports the input only when asked to; its message always ends with what it received.
      return /received undefined$/.test(issue.message) ? 'is required' : `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`
    case 'invalid_format':
      return `must be a valid ${issue.format}`
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`
    default:
      // Custom refinements carry their own sentence; the rest are zod's, minus its prefix. Never lowercased: values
      // inside the message are quoted as written.
      return issue.message.replace(/^Invalid input: /, '')
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
  bigint: 'an integer',
  date: 'a date',
}
