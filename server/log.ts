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
