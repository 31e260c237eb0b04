import { describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../../tests/support/app.ts'
import { MemoryStore } from '../store/memory.ts'
import { escapeControlCharacters } from './control-characters.ts'
import { constantTimeEqual, createKey, kindOfKey, parseExpiry, parseKeyName, sha256Hex, verifyKey } from './keys.ts'

// Each one moves a terminal's cursor, starts a line, or reorders what follows it on screen.
const CONTROL = ['\n', '\r', '\t', '\x00', '\x1b', '\x7f', '\x85', '\x9b', '\u202a', '\u202e', '\u2066', '\u2069']

describe('keys', () => {
  test('keys are random, prefixed by kind, and stored only as a SHA-256 hash', async () => {
    const store = new MemoryStore()
    const admin = await createKey(store, { kind: 'admin', organization: 'o' })
    const assistant = await createKey(store, { kind: 'assistant', organization: 'o', projectId: 'p' })
    expect(admin.secret).toMatch(/^svc_[A-Za-z0-9]{32}$/)
    expect(assistant.secret).toMatch(/^svc_dsc_[A-Za-z0-9]{32}$/)
    expect(kindOfKey(admin.secret)).toBe('admin')
    expect(kindOfKey(assistant.secret)).toBe('assistant')
    // A key's shape: `svc_`, then 8 to 200 letters, digits and `_`.
    expect(kindOfKey(`svc_${'a'.repeat(8)}`)).toBe('admin')
    expect(kindOfKey(`svc_${'a'.repeat(200)}`)).toBe('admin')
    expect(kindOfKey(`svc_dsc_${'a'.repeat(192)}`)).toBe('assistant')
    for (const bad of [`svc_${'a'.repeat(7)}`, `svc_${'a'.repeat(201)}`, 'svc_abcdefgh-', 'sk_abcdefghij', ` svc_${'a'.repeat(8)}`]) {
      expect(kindOfKey(bad)).toBeNull()
    }
    const stored = await store.listKeys('o')
    expect(JSON.stringify(stored)).not.toContain(admin.secret)
    expect(stored.find((k) => k.id === admin.record.id)?.hash).toBe(await sha256Hex(admin.secret))
    expect(admin.record.last4).toBe(admin.secret.slice(-4))
    const again = await createKey(store, { kind: 'admin', organization: 'o' })
    expect(again.secret).not.toBe(admin.secret)
  })

  test('verify refuses unknown, malformed, revoked and expired keys', async () => {
    const store = new MemoryStore()
    const now = new Date('2026-06-01T00:00:00Z')
    const key = await createKey(store, { kind: 'admin', organization: 'o', expiresAt: new Date('2026-07-01T00:00:00Z') })
    expect(await verifyKey(store, key.secret, now)).toMatchObject({ ok: true })
    expect(await verifyKey(store, key.secret, new Date('2026-07-01T00:00:00Z'))).toEqual({ ok: false, reason: 'API key expired' })
    expect(await verifyKey(store, 'svc_doesnotexistatall', now)).toEqual({ ok: false, reason: 'unknown API key' })
    expect(await verifyKey(store, 'sk-live-123', now)).toEqual({ ok: false, reason: 'malformed API key' })
    await store.revokeKey(key.record.id, now)
    expect(await verifyKey(store, key.secret, now)).toEqual({ ok: false, reason: 'API key revoked' })
  })

  test('an assistant key needs a project; a given secret must match its kind', async () => {
    const store = new MemoryStore()
    await expect(createKey(store, { kind: 'assistant', organization: 'o' })).rejects.toThrow(/project/)
    await expect(createKey(store, { kind: 'admin', organization: 'o', secret: 'svc_dsc_looksassistant' })).rejects.toThrow(/must not start/)
  })

  test('helpers: constant-time compare and expiry parsing', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'abcd')).toBe(false)
    const now = new Date('2026-01-01T00:00:00Z')
    expect(parseExpiry('90d', now)).toEqual(new Date('2026-04-01T00:00:00Z'))
    expect(parseExpiry('12h', now)).toEqual(new Date('2026-01-01T12:00:00Z'))
    expect(parseExpiry('2027-01-01', now)).toEqual(new Date('2027-01-01T00:00:00Z'))
    expect(() => parseExpiry('soon', now)).toThrow(/--expires/)
  })

  test('expiry: in the future, a date that exists, at most what the API allows', () => {
    const now = new Date('2026-01-01T00:00:00Z')
    expect(parseExpiry('3650d', now)).toEqual(new Date('2035-12-30T00:00:00Z'))
    expect(parseExpiry('2026-01-01T00:01:00Z', now)).toEqual(new Date('2026-01-01T00:01:00Z'))
    expect(parseExpiry('2028-02-29', now)).toEqual(new Date('2028-02-29T00:00:00Z'))
    for (const past of ['0d', '0h', '0m', '2025-12-31', '2026-01-01T00:00:00Z'])
      expect(() => parseExpiry(past, now)).toThrow(/in the future/)
    for (const far of ['3651d', '9999999d', '99999999999d', `${'9'.repeat(400)}d`, '2036-01-01']) {
      expect(() => parseExpiry(far, now)).toThrow(/at most 3650 days ahead/)
    }
    for (const invalid of ['2030-02-30', '2027-02-29', '2030-13-01', 'March 3 2030', '12', '-5d']) {
      expect(() => parseExpiry(invalid, now)).toThrow(/expected/)
    }
  })

  test('key names: the API length rule, no control characters', async () => {
    expect(parseKeyName('  CI deploys  ')).toEqual({ ok: true, name: 'CI deploys' })
    expect(parseKeyName('é 漢字 🔑')).toMatchObject({ ok: true })
    expect(parseKeyName('n'.repeat(100))).toMatchObject({ ok: true })
    expect(parseKeyName('n'.repeat(101))).toEqual({ ok: false, problem: 'must be at most 100 characters' })
    expect(parseKeyName('   ')).toEqual({ ok: false, problem: 'must not be empty' })
    const store = new MemoryStore()
    for (const char of CONTROL) {
      expect(parseKeyName(`a${char}b`)).toMatchObject({ ok: false, problem: expect.stringMatching(/control characters/) })
      await expect(createKey(store, { kind: 'admin', organization: 'o', name: `a${char}b` })).rejects.toThrow(/^name: must not contain/)
    }
    expect(await store.listKeys('o')).toEqual([])
  })

  test('escaping leaves no control character, and text without one as it was', () => {
    const all = CONTROL.join('')
    expect(escapeControlCharacters(`a${all}z`)).toBe('a\\n\\r\\t\\x00\\x1b\\x7f\\x85\\x9b\\u202a\\u202e\\u2066\\u2069z')
    expect(escapeControlCharacters('line\none', '\n')).toBe('line\none')
    expect(escapeControlCharacters('é 漢字 🔑 \u200f')).toBe('é 漢字 🔑 \u200f')
  })
})

describe('POST /v2/keys', () => {
  test.each(CONTROL)('refuses a name with %j: 400 naming the field', async (char) => {
    const t = await testDocent()
    const response = await t.app.request('/v2/keys', json({ name: `evil${char}name` }, bearer(t.keys.admin)))
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatch(/^name: must not contain control characters/)
    await t.docent.stop()
  })
})
