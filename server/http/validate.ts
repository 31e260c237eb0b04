import type { Context } from 'hono'
import type { z } from 'zod'
import { formatIssues } from '../../shared/errors.ts'
import { readBodyText } from './body-limit.ts'
import { ApiError } from './errors.ts'

/** Reads a JSON body and validates it with a shared schema; any failure is a 400 naming the field. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? ''
  if (type && !/^application\/(.+\+)?json\b/i.test(type) && !/^text\/plain\b/i.test(type)) {
    throw new ApiError(415, 'content-type must be application/json')
  }
  let raw: unknown
  try {
    const text = await readBodyText(c.req.raw, () => c.req.text())
    if (text.trim() === '') throw new ApiError(400, 'request body is empty; expected JSON')
    raw = JSON.parse(text)
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(400, 'request body is not valid JSON')
  }
  return parseWith(schema, raw)
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw)
  if (!result.success) throw new ApiError(400, formatIssues(result.error.issues))
  return result.data
}

/** Validates query parameters (`?limit=&cursor=`) with a shared schema. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query())
}
