import { scrubSecrets, scrubValue } from './git/scrub.ts'

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** One JSON line per entry on the console: every runtime has one, and log shippers read JSON. */
export function consoleLogger(level: 'info' | 'warn' | 'error' | 'silent' = 'info'): Logger {
  const order = { info: 0, warn: 1, error: 2, silent: 3 }
  const write = (at: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields })
    if (at === 'error') console.error(line)
    else console.log(line)
  }
  return { info: write('info'), warn: write('warn'), error: write('error') }
}

/**
 * A logger that never writes a secret: the values of the secrets the configuration names (model API key, git tokens),
 * credentials in URLs, and anything shaped like an API key are replaced by `***` in the message and every field. A
 * model or git server that echoes the key it was sent (`Incorrect API key provided: sk-...`) cannot put it in the log.
 */
export function redactingLogger(base: Logger, secrets: Array<string | undefined>): Logger {
  const wrap =
    (at: 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void =>
      base[at](scrubSecrets(message, secrets), fields && (scrubValue(fields, secrets) as Record<string, unknown>))
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') }
}
