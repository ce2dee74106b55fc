// The confirmer's rules with a fake transcript and fake timers: written again only when the
// transcript shows nothing after the deadline and has moved on without it (or stayed silent for
// SILENT_PATIENCE deadlines); never while queued; unconfirmed after its tries.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { StoredEvent } from '../core/event.js'
import { Confirmer, SILENT_PATIENCE } from './confirm.js'

const event = (id: string): StoredEvent => ({
  id,
  seq: 1,
  topic: 't',
  source: 's',
  sender: null,
  chat_id: null,
  content: 'c',
  meta: {},
  created_at: 0,
})

/**
 * `read`: when Claude Code has read what was written so far (at once, unless a test says).
 * `transcript`: `moving`, a session writing lines all the time (its newest line is always now), or
 * `silent`, one that writes none.
 */
function setup(
  tries = 3,
  read: () => Promise<void> = async () => {},
  lines: 'moving' | 'silent' = 'moving',
  unwritable: () => string | null = () => null,
) {
  const transcript = new Map<string, 'queued' | 'in_context'>()
  const log: string[] = []
  const confirmer = new Confirmer(
    {
      write: async (e) => {
        log.push(`write ${e.id}`)
      },
      receipt: (e, stage, n, reason) => log.push(`${stage} ${e.id} ${n}${reason ? ` ${reason}` : ''}`),
      confirmed: (e) => log.push(`ack ${e.id}`),
      unconfirmed: (e) => log.push(`down ${e.id}`),
      why: () => 'because',
      unwritable,
      read,
    },
    {
      deadlineMs: 1_000,
      tries,
      state: (id) => transcript.get(id) ?? 'absent',
      refresh: () => log.push('refresh'),
      newestLineAt: () => (lines === 'moving' ? Date.now() : null),
    },
  )
  return { transcript, log, confirmer }
}

describe('the confirmer', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('acknowledges an event once the transcript shows it in context, not once it is written', async () => {
    const { log, confirmer } = setup()
    await confirmer.deliver(event('a'))
    expect(log).toEqual(['refresh', 'write a', 'written a 1'])
    confirmer.seen('a', 'in_context')
    expect(log.slice(3)).toEqual(['in_context a 1', 'ack a'])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(log.filter((l) => l.startsWith('write'))).toHaveLength(1)
  })

  it('writes a dropped event again with the same id after looking once more, doubling the wait', async () => {
    const { log, confirmer, transcript } = setup()
    await confirmer.deliver(event('a'))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(log.slice(3)).toEqual(['refresh', 'write a', 'written a 2'])
    await vi.advanceTimersByTimeAsync(1_999)
    expect(log.filter((l) => l === 'write a')).toHaveLength(2)
    transcript.set('a', 'in_context') // shown meanwhile: found when it looks once more
    await vi.advanceTimersByTimeAsync(1)
    expect(log.slice(-3)).toEqual(['refresh', 'in_context a 2', 'ack a'])
  })

  it('counts the deadline from when Claude Code has read the write: one slow to read its pipe is not shown the event twice', async () => {
    const reads: { resolve(): void; reject(err: Error): void }[] = []
    const { log, confirmer, transcript } = setup(
      3,
      () => new Promise((resolve, reject) => reads.push({ resolve, reject })),
    )
    const writes = () => log.filter((l) => l === 'write a').length
    await confirmer.deliver(event('a'))
    // A loaded machine: the session reads its pipe seconds later, and only then records the event.
    await vi.advanceTimersByTimeAsync(30_000)
    expect(writes()).toBe(1)
    reads[0]?.resolve()
    await vi.advanceTimersByTimeAsync(999)
    expect(writes()).toBe(1)
    // Read, and nothing in the transcript a deadline later: dropped, written again.
    await vi.advanceTimersByTimeAsync(1)
    expect(writes()).toBe(2)
    // A session that cannot say it read (no answer): the deadline runs all the same.
    reads[1]?.reject(new Error('no answer'))
    await vi.advanceTimersByTimeAsync(2_000)
    expect(writes()).toBe(3)
    transcript.set('a', 'in_context')
    confirmer.seen('a', 'in_context')
    expect(log.slice(-1)).toEqual(['ack a'])
  })

  it('waits longer on a silent transcript, which may only be slow to write, before writing again', async () => {
    const { log, confirmer, transcript } = setup(3, async () => {}, 'silent')
    const writes = () => log.filter((l) => l === 'write a').length
    await confirmer.deliver(event('a'))
    // Read, a deadline passes, nothing written down at all: a loaded machine, not yet a drop.
    await vi.advanceTimersByTimeAsync(1_000 * SILENT_PATIENCE - 1)
    expect(writes()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(writes()).toBe(2)
    transcript.set('a', 'in_context')
    confirmer.seen('a', 'in_context')
    expect(log.slice(-1)).toEqual(['ack a'])
  })

  it('never writes a queued event again, whatever the wait', async () => {
    const { log, confirmer } = setup()
    await confirmer.deliver(event('a'))
    confirmer.seen('a', 'queued')
    await vi.advanceTimersByTimeAsync(600_000)
    expect(log.filter((l) => l === 'write a')).toHaveLength(1)
    expect(log).toContain('queued a 1')
    confirmer.seen('a', 'in_context')
    expect(log.slice(-1)).toEqual(['ack a'])
  })

  it('does not write an event the transcript already holds (a channel started again)', async () => {
    const { log, confirmer, transcript } = setup()
    transcript.set('a', 'in_context')
    transcript.set('b', 'queued')
    await confirmer.deliver(event('a'))
    await confirmer.deliver(event('b'))
    expect(log.filter((l) => l.startsWith('write'))).toEqual([])
    expect(log).toContain('ack a')
    expect(log).toContain('queued b 0')
  })

  it('gives up after its tries: unconfirmed, with why, and down the ladder', async () => {
    const { log, confirmer } = setup(3)
    await confirmer.deliver(event('a'))
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000)
    expect(log.filter((l) => l === 'write a')).toHaveLength(3)
    expect(log.slice(-2)).toEqual(['unconfirmed a 3 because', 'down a'])
    expect(confirmer.waiting).toBe(0)
  })
  it('does not write again an event a transcript that cannot be written lacks (a full disk): unconfirmed with that why', async () => {
    let full: string | null = null
    const { log, confirmer } = setup(
      3,
      async () => {},
      'silent',
      () => full,
    )
    await confirmer.deliver(event('a'))
    full = 'the disk is full'
    await vi.advanceTimersByTimeAsync(1_000 * SILENT_PATIENCE)
    expect(log.filter((l) => l === 'write a')).toHaveLength(1)
    expect(log.slice(-2)).toEqual(['unconfirmed a 1 the disk is full', 'down a'])
    expect(confirmer.waiting).toBe(0)
  })
})
