import { describe, expect, test } from 'vitest'
import { MemoryStore } from '../store/memory.ts'
import { constantTimeEqual, createKey, kindOfKey, parseExpiry, sha256Hex, verifyKey } from './keys.ts'

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
})
