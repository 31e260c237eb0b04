import type { Context } from 'hono'

/** What the runtime entrypoints pass as Hono's `env`: the peer address of the connection. */
export interface ConnectionEnv {
  ip?: string
}

/**
 * The caller's IP, in one canonical form (see canonicalIp): from the connection, or, only when the proxy in front is
 * trusted, the address that proxy saw: the last `X-Forwarded-For` entry. The entries before it are whatever the client
 * sent (a proxy appends the address it saw), so the first one let a client pick a new address for every request.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim()
    if (forwarded) return canonicalIp(forwarded)
  }
  const peer = (c.env as ConnectionEnv | undefined)?.ip
  return peer ? canonicalIp(peer) : 'unknown'
}

/**
 * What the per-address limits count by: the address, or an IPv6 address's /64 network, which one host or home is
 * given whole (counting each of its addresses apart gave it 2^64 budgets).
 */
export function limitKeyOfIp(ip: string): string {
  const groups = ipv6Groups(ip)
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/

/**
 * One written form per address, so that one client is one key: a port, brackets and an IPv6 zone dropped, IPv6 in full
 * lower-case hexadecimal groups, and an IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, as dual-stack sockets report
 * IPv4 peers) written as IPv4. Anything else is kept as written.
 */
export function canonicalIp(raw: string): string {
  let ip = raw.trim()
  ip = BRACKETED.exec(ip)?.[1] ?? IPV4_WITH_PORT.exec(ip)?.[1] ?? ip
  ip = ip.toLowerCase()
  const zone = ip.indexOf('%')
  if (zone >= 0) ip = ip.slice(0, zone)
  if (IPV4.test(ip)) return ip
  const groups = ipv6Groups(ip)
  if (!groups) return ip
  const mapped = groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff'
  if (mapped) {
    const [high, low] = [Number.parseInt(groups[6]!, 16), Number.parseInt(groups[7]!, 16)]
    return [high >> 8, high & 255, low >> 8, low & 255].join('.')
  }
  return groups.join(':')
}

const HEXTET = /^[0-9a-f]{1,4}$/

/** An IPv6 address's eight groups, without leading zeros; undefined when it is none. */
function ipv6Groups(ip: string): string[] | undefined {
  if (!ip.includes(':')) return undefined
  const halves = ip.split('::')
  if (halves.length > 2) return undefined
  const partsOf = (half: string | undefined) => (half ? half.split(':') : [])
  const expand = (parts: string[]) => {
    // A trailing dotted IPv4 part is the last two groups.
    const last = parts.at(-1)
    if (last !== undefined && IPV4.test(last)) {
      const bytes = last.split('.').map(Number)
      if (bytes.some((byte) => byte > 255)) return undefined
      return [...parts.slice(0, -1), ((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16)]
    }
    return parts
  }
  const head = expand(partsOf(halves[0]))
  const tail = expand(partsOf(halves[1]))
  if (!head || !tail) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail]
  if (!groups.every((group) => HEXTET.test(group))) return undefined
  return groups.map((group) => Number.parseInt(group, 16).toString(16))
}
