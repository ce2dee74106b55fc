// The delivery's decisions, alone: a fake Claude Code that records what it is told, a fake transcript,
// a real shown log in a temporary folder, and fake timers. What the hub would hear is what the
// delivery emits ('receipt', 'handled') and what deliver() returns ('kept': not acknowledged yet).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TranscriptMark } from '../claude/transcript-marks.js'
import type { StoredEvent } from '../core/event.js'
import { type ClaudeSide, Delivery, type Transcript } from './delivery.js'
import type { Rung } from './rung.js'
import { ShownLog } from './shown.js'

const GRACE_MS = 1_000
const DEADLINE_MS = 1_000

const event = (id: string, sender: string | null = null): StoredEvent => ({
  id,
  seq: 1,
  topic: 'deploys',
  source: 'ci',
  sender,
  chat_id: null,
  content: `content of ${id}`,
  meta: {},
  created_at: 0,
})

const dirs: string[] = []

/** A transcript the test writes: `mark` is Claude Code writing an event's line. */
function fakeTranscript() {
  const marks = new Map<string, TranscriptMark>()
  const listeners: ((id: string, mark: TranscriptMark) => void)[] = []
  let watching = false
  const transcript: Transcript = {
    state: (id) => marks.get(id) ?? 'absent',
    refresh: () => {},
    newestLineAt: () => Date.now(),
    unwritable: () => null,
    firstLineAt: () => null,
    found: true,
    start: () => {
      watching = true
    },
    stop: () => {
      watching = false
    },
  }
  return {
    open: (onMark: (id: string, mark: TranscriptMark) => void) => {
      listeners.push(onMark)
      return transcript
    },
    mark(id: string, mark: TranscriptMark) {
      marks.set(id, mark)
      for (const listener of listeners) listener(id, mark)
    },
    watching: () => watching,
  }
}

function setup({ confirming = false, tries = 2 } = {}) {
  /** What Claude Code was told, in order. */
  const claudeSaw: string[] = []
  const claude: ClaudeSide = {
    show: async (e) => {
      claudeSaw.push(`show ${e.id}`)
    },
    notice: async (text) => {
      claudeSaw.push(`notice ${text}`)
    },
    read: async () => {},
  }
  const transcript = fakeTranscript()
  const delivery = new Delivery({
    claude,
    transcript: transcript.open,
    confirming,
    graceMs: GRACE_MS,
    deadlineMs: DEADLINE_MS,
    tries,
    why: (found) => (found ? 'Claude Code did not take it' : 'no transcript'),
  })
  /** What the hub heard, in order. */
  const hubHeard: string[] = []
  delivery.on('receipt', (r) => hubHeard.push(`${r.stage} ${r.event_id}${r.reason ? ` (${r.reason})` : ''}`))
  delivery.on('handled', (id) => hubHeard.push(`handled ${id}`))
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-delivery-'))
  dirs.push(dir)
  const shownFile = join(dir, 'channels', 'work.shown')
  /** Claude Code initialized the channel on `rung`, the hub welcomed it, and the grace has passed. */
  async function ready(rung: Rung, shown = ShownLog.open(shownFile)) {
    delivery.open(shown)
    delivery.begin(rung)
    await vi.advanceTimersByTimeAsync(GRACE_MS)
  }
  /** Whether a channel started again under the same name would find the id in the shown log. */
  const shownAfterwards = (id: string) => readFileSync(shownFile, 'utf8').split('\n').includes(id)
  return { delivery, claudeSaw, hubHeard, transcript, ready, shownFile, shownAfterwards }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  vi.useRealTimers()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('the delivery, before Claude Code listens', () => {
  it('holds an event until the grace after initialized has passed, then shows it', async () => {
    const { delivery, claudeSaw, shownFile } = setup()
    delivery.open(ShownLog.open(shownFile))
    const delivered = delivery.deliver(event('ev_1'))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(claudeSaw).toEqual([]) // not initialized yet: nothing chosen, nothing written
    delivery.begin('channel')
    await vi.advanceTimersByTimeAsync(GRACE_MS - 1)
    expect(claudeSaw).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(claudeSaw).toEqual(['show ev_1'])
    await expect(delivered).resolves.toBeUndefined()
  })

  it('holds an event until the hub has named the shown log', async () => {
    const { delivery, claudeSaw, shownFile } = setup()
    delivery.begin('channel')
    const delivered = delivery.deliver(event('ev_1'))
    await vi.advanceTimersByTimeAsync(GRACE_MS * 10)
    expect(claudeSaw).toEqual([])
    delivery.open(ShownLog.open(shownFile))
    await expect(delivered).resolves.toBeUndefined()
    expect(claudeSaw).toEqual(['show ev_1'])
  })

  it('says whether it listens, for the verdicts relayed to Claude Code', async () => {
    const { delivery } = setup()
    let listening = false
    void delivery.listening.then(() => {
      listening = true
    })
    delivery.begin('message')
    await vi.advanceTimersByTimeAsync(GRACE_MS)
    expect(listening).toBe(true)
    expect(delivery.rung).toBe('message')
  })
})

describe('the delivery on the channel rung, without a transcript', () => {
  it('shows an event, records it as shown, and lets the hub acknowledge it', async () => {
    const { delivery, claudeSaw, hubHeard, ready, shownAfterwards } = setup()
    await ready('channel')
    await expect(delivery.deliver(event('ev_1'))).resolves.toBeUndefined()
    expect(claudeSaw).toEqual(['show ev_1'])
    expect(hubHeard).toEqual([]) // no receipts: the acknowledgement says it was written
    expect(shownAfterwards('ev_1')).toBe(true)
    // The inbox keeps it for another look, read already: listing it acknowledges nothing more.
    expect(delivery.readInbox(10).map((e) => e.id)).toEqual(['ev_1'])
    expect(hubHeard).toEqual([])
  })

  it('does not show again what it, or the channel before it, showed', async () => {
    const { delivery, claudeSaw, ready, shownFile } = setup()
    const before = ShownLog.open(shownFile)
    before.record('ev_1') // the predecessor wrote it, and died before the hub heard
    await ready('channel', ShownLog.open(shownFile))
    await expect(delivery.deliver(event('ev_1'))).resolves.toBeUndefined()
    expect(claudeSaw).toEqual([])
  })

  it('records what the transport saw reach the pipe, so a crash before the write completes shows nothing twice', async () => {
    const { delivery, ready, shownAfterwards } = setup()
    await ready('channel')
    delivery.written('ev_9')
    expect(shownAfterwards('ev_9')).toBe(true)
  })
})

describe('the delivery on the channel rung, confirming from the transcript', () => {
  it('keeps an event written until the transcript shows it in context, then acknowledges it', async () => {
    const { delivery, claudeSaw, hubHeard, transcript, ready, shownAfterwards } = setup({ confirming: true })
    expect(transcript.watching()).toBe(true)
    await ready('channel')
    await expect(delivery.deliver(event('ev_1'))).resolves.toBe('kept')
    expect(claudeSaw).toEqual(['show ev_1'])
    expect(hubHeard).toEqual(['written ev_1'])
    delivery.written('ev_1') // the pipe is no proof: not recorded as shown yet
    expect(shownAfterwards('ev_1')).toBe(false)
    transcript.mark('ev_1', 'in_context')
    expect(hubHeard).toEqual(['written ev_1', 'in_context ev_1', 'handled ev_1'])
    expect(shownAfterwards('ev_1')).toBe(true)
  })

  it('says again that an event it showed is in context, without writing it, when the hub sends it again', async () => {
    const { delivery, claudeSaw, hubHeard, transcript, ready, shownFile } = setup({ confirming: true })
    const before = ShownLog.open(shownFile)
    before.record('ev_1')
    before.record('ev_2')
    transcript.mark('ev_1', 'in_context') // ev_2: shown, but the transcript never had it
    await ready('channel', ShownLog.open(shownFile))
    await expect(delivery.deliver(event('ev_1'))).resolves.toBe('kept')
    await expect(delivery.deliver(event('ev_2'))).resolves.toBeUndefined()
    expect(claudeSaw).toEqual([])
    expect(hubHeard).toEqual(['in_context ev_1', 'handled ev_1'])
  })

  it('sends an event Claude Code never took down the ladder: unconfirmed, a line to read it with inbox', async () => {
    const { delivery, claudeSaw, hubHeard, ready } = setup({ confirming: true, tries: 2 })
    await ready('channel')
    await delivery.deliver(event('ev_1'))
    await vi.advanceTimersByTimeAsync(DEADLINE_MS + 2 * DEADLINE_MS)
    expect(claudeSaw).toEqual([
      'show ev_1',
      'show ev_1',
      'notice New event ev_1 from ci (topic deploys) could not be shown (Claude Code did not take it): call the inbox tool to read it.',
    ])
    expect(hubHeard).toEqual([
      'written ev_1',
      'written ev_1',
      'unconfirmed ev_1 (Claude Code did not take it)',
      'handled ev_1',
    ])
    expect(delivery.readInbox(10).map((e) => e.id)).toEqual(['ev_1'])
  })

  it('keeps an event sent down the ladder unread: the inbox tool lists it before the newer ones Claude saw', async () => {
    const { delivery, claudeSaw, transcript, ready } = setup({ confirming: true, tries: 1 })
    await ready('channel')
    await delivery.deliver(event('ev_1'))
    await vi.advanceTimersByTimeAsync(DEADLINE_MS)
    expect(claudeSaw.at(-1)).toMatch(/^notice New event ev_1 .* call the inbox tool to read it\.$/)
    for (const id of ['ev_2', 'ev_3']) {
      await delivery.deliver(event(id))
      transcript.mark(id, 'in_context')
    }
    // The line said to call inbox: with room for one, the event it named is the one listed.
    expect(delivery.readInbox(1).map((e) => e.id)).toEqual(['ev_1'])
  })

  it('stops reading the transcript and writing again once closed', async () => {
    const { delivery, claudeSaw, transcript, ready } = setup({ confirming: true })
    await ready('channel')
    await delivery.deliver(event('ev_1'))
    delivery.close()
    expect(transcript.watching()).toBe(false)
    await vi.advanceTimersByTimeAsync(DEADLINE_MS * 60)
    expect(claudeSaw).toEqual(['show ev_1'])
  })
})

describe('the delivery on the message rung (a client without channels)', () => {
  it('tells Claude of an event once, and keeps it until the inbox tool returns it', async () => {
    const { delivery, claudeSaw, hubHeard, ready, shownAfterwards } = setup({ confirming: true })
    await ready('message')
    await expect(delivery.deliver(event('ev_1', 'bob'))).resolves.toBe('kept')
    // The hub sends it again after a reconnect: no second line.
    await expect(delivery.deliver(event('ev_1', 'bob'))).resolves.toBe('kept')
    expect(claudeSaw).toEqual([
      'notice New event ev_1 from bob via ci (topic deploys): call the inbox tool to read it.',
    ])
    expect(hubHeard).toEqual([])
    expect(delivery.readInbox(10).map((e) => e.id)).toEqual(['ev_1'])
    expect(hubHeard).toEqual(['handled ev_1'])
    expect(shownAfterwards('ev_1')).toBe(true)
    // Read before: listed again for another look, acknowledged once.
    expect(delivery.readInbox(10).map((e) => e.id)).toEqual(['ev_1'])
    expect(hubHeard).toEqual(['handled ev_1'])
  })
})
