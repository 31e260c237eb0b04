import { afterEach, describe, expect, test, vi } from 'vitest'
import { idleCollector, startIdleCollector } from './idle-collector.ts'

const MiB = 2 ** 20

describe('idle collector', () => {
  afterEach(() => vi.useRealTimers())

  function setup() {
    let clock = 0
    let heap = 40 * MiB
    const collections: number[] = []
    const collector = idleCollector({
      gc: () => {
        collections.push(clock)
        heap = 35 * MiB
      },
      heapUsed: () => heap,
      now: () => clock,
      quietMs: 10_000,
      growthBytes: 16 * MiB,
      checkMs: 60_000,
    })
    return {
      collector,
      collections,
      advance: (ms: number) => void (clock += ms),
      grow: (bytes: number) => void (heap += bytes),
    }
  }

  test('collects once the server is quiet and the heap has grown, then not again until it grows again', () => {
    const { collector, collections, advance, grow } = setup()
    grow(30 * MiB)
    advance(5_000)
    expect(collector.check()).toBe(false) // not quiet yet
    advance(5_000)
    expect(collector.check()).toBe(true)
    expect(collections).toEqual([10_000])
    advance(20_000)
    expect(collector.check()).toBe(false) // nothing new since
    grow(10 * MiB)
    expect(collector.check()).toBe(false) // grown, but less than the threshold
    grow(10 * MiB)
    expect(collector.check()).toBe(true)
    expect(collections).toEqual([10_000, 30_000])
    collector.stop()
  })

  test('never collects while requests keep coming', () => {
    const { collector, collections, advance, grow } = setup()
    grow(100 * MiB)
    for (let i = 0; i < 20; i++) {
      advance(4_000)
      collector.noteRequest()
      expect(collector.check()).toBe(false)
    }
    advance(10_000)
    expect(collector.check()).toBe(true)
    expect(collections).toHaveLength(1)
    collector.stop()
  })

  test('looks on its own timer until stopped', () => {
    vi.useFakeTimers()
    let heap = 10 * MiB
    const gc = vi.fn(() => void (heap = 12 * MiB))
    const collector = idleCollector({ gc, heapUsed: () => heap, now: Date.now, checkMs: 5_000 })
    heap = 60 * MiB
    vi.advanceTimersByTime(9_000)
    expect(gc).not.toHaveBeenCalled()
    vi.advanceTimersByTime(6_000)
    expect(gc).toHaveBeenCalledTimes(1)
    collector.stop()
    heap = 200 * MiB
    vi.advanceTimersByTime(60_000)
    expect(gc).toHaveBeenCalledTimes(1)
  })

  test('runs over the exposed gc, and is off where the runtime has none', () => {
    const scope = globalThis as { gc?: () => void }
    const exposed = scope.gc
    try {
      delete scope.gc
      expect(startIdleCollector(() => 0)).toBeUndefined()
      const gc = vi.fn()
      scope.gc = gc
      let heap = 0
      const collector = startIdleCollector(() => heap)
      expect(collector).toBeDefined()
      heap = 64 * MiB
      vi.useFakeTimers({ now: Date.now() + 60_000 })
      expect(collector!.check()).toBe(true)
      expect(gc).toHaveBeenCalledTimes(1)
      collector!.stop()
    } finally {
      if (exposed) scope.gc = exposed
      else delete scope.gc
    }
  })
})
