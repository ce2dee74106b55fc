import { describe, expect, it } from 'vitest'
import type { StoredEvent } from '../core/event.js'
import { Inbox } from './inbox.js'

const event = (n: number) => ({ id: `ev_${n}`, seq: n }) as StoredEvent
const ids = (events: StoredEvent[]) => events.map((e) => e.id)

describe('the inbox', () => {
  it('gives what was not read before what was, and never drops an unread event', () => {
    const inbox = new Inbox()
    for (let n = 1; n <= 600; n++) inbox.add(event(n), false)
    const first = inbox.take(3)
    expect(ids(first.events)).toEqual(['ev_3', 'ev_2', 'ev_1'])
    expect(ids(first.newlyRead)).toEqual(['ev_1', 'ev_2', 'ev_3'])
    expect(inbox.state('ev_600')).toBe('unread')
    const rest = inbox.take(600)
    expect(rest.newlyRead).toHaveLength(597)
    // Read ones are kept for another look, the newest 500 of them.
    const again = inbox.take(1000)
    expect(again.newlyRead).toEqual([])
    expect(again.events).toHaveLength(500)
    expect(again.events[0]?.id).toBe('ev_600')
  })

  it('keeps one copy of an event delivered twice, read or not', () => {
    const inbox = new Inbox()
    inbox.add(event(1), false)
    inbox.add(event(1), false)
    inbox.add(event(2), true)
    expect(inbox.state('ev_1')).toBe('unread')
    expect(ids(inbox.take(5).events)).toEqual(['ev_2', 'ev_1'])
    expect(inbox.state('ev_1')).toBe('read')
  })

  it('gives an event that was not shown after all as unread again', () => {
    const inbox = new Inbox()
    inbox.add(event(1), true)
    inbox.add(event(2), true)
    inbox.unread(event(1))
    inbox.unread(event(3)) // not held: held unread
    expect(inbox.state('ev_1')).toBe('unread')
    const taken = inbox.take(2)
    expect(ids(taken.events)).toEqual(['ev_3', 'ev_1'])
    expect(ids(taken.newlyRead)).toEqual(['ev_1', 'ev_3'])
  })
})
