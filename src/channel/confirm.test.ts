// The confirmer's rules with a fake transcript and fake timers: written again only when the
// transcript shows nothing after the deadline; never while queued; unconfirmed after its tries.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { StoredEvent } from '../core/event.js'
import { Confirmer } from './confirm.js'

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

function setup(tries = 3, heard: () => Promise<void> = async () => {}) {
  const transcript = new Map<string, 'queued' | 'in_context'>()
  const log: string[] = []
  const confirmer = new Confirmer(
    {
      write: async (e) => {
        log.push(`write ${e.id}`)
      },
      heard,
      receipt: (e, stage, n, reason) => log.push(`${stage} ${e.id} ${n}${reason ? ` ${reason}` : ''}`),
      confirmed: (e) => log.push(`ack ${e.id}`),
      unconfirmed: (e) => log.push(`down ${e.id}`),
      why: () => 'because',
    },
    {
      deadlineMs: 1_000,
      tries,
      state: (id) => transcript.get(id) ?? 'absent',
      refresh: () => log.push('refresh'),
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

  it('counts the deadline from when Claude Code has read the event, so a CLI starved of CPU is not sent a second copy', async () => {
    // Claude Code answers the channel's ping only after it has read everything before it on its stdin.
    let answer!: () => void
    const { log, confirmer } = setup(3, () => new Promise<void>((r) => (answer = r)))
    const delivering = confirmer.deliver(event('a'))
    await vi.advanceTimersByTimeAsync(10_000) // busy: not read yet, however long it takes
    expect(log.filter((l) => l.startsWith('write'))).toEqual(['write a'])
    answer()
    await delivering
    await vi.advanceTimersByTimeAsync(500)
    confirmer.seen('a', 'in_context') // recorded within the deadline, counted from the read
    await vi.advanceTimersByTimeAsync(1_000)
    expect(log.filter((l) => l.startsWith('write'))).toEqual(['write a'])
    expect(log).toContain('in_context a 1')
  })
})
