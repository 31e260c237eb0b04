import { describe, expect, test } from 'vitest'
import { canonicalIp, limitKeyOfIp } from './client-ip.ts'

describe('one client, one address', () => {
  test('every way of writing an address is one form: ports, brackets, zones, case, zeros, IPv4 mapped into IPv6', () => {
    for (const written of ['2001:db8::1', '2001:DB8::1', '2001:db8:0:0:0:0:0:1', '2001:0db8::0001', '[2001:db8::1]', '[2001:db8::1]:443']) {
      expect(canonicalIp(written), written).toBe('2001:db8:0:0:0:0:0:1')
    }
    for (const written of ['10.0.0.1', ' 10.0.0.1 ', '::ffff:10.0.0.1', '::FFFF:a00:1', '10.0.0.1:5555', '[::ffff:10.0.0.1]:80']) {
      expect(canonicalIp(written), written).toBe('10.0.0.1')
    }
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1')
    expect(canonicalIp('::1')).toBe('0:0:0:0:0:0:0:1')
    // Not an address: kept as written (a limit still counts it as one key).
    for (const written of ['unknown', '1:2:3', '1::2::3', '12345::1', 'g::1']) expect(canonicalIp(written), written).toBe(written)
  })

  test('the limits count an IPv6 host by its /64 network, an IPv4 one by its address', () => {
    expect(limitKeyOfIp(canonicalIp('2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:2::/64')
    expect(limitKeyOfIp(canonicalIp('2001:db8:1:2:bbbb:cccc:dddd:eeee'))).toBe('2001:db8:1:2::/64')
    expect(limitKeyOfIp(canonicalIp('2001:db8:1:3::1'))).toBe('2001:db8:1:3::/64')
    expect(limitKeyOfIp('10.0.0.1')).toBe('10.0.0.1')
  })
})
