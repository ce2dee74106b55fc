// The feeds a session's news goes out on: each listener hears what it subscribed to, until it stops.
import { describe, expect, it } from 'vitest'
import { Feed } from './session-events.js'

describe('a feed', () => {
  it('tells one session’s listeners only its news, and every-session listeners all of it', () => {
    const feed = new Feed<[n: number]>(() => {})
    const heard: string[] = []
    feed.of('a', (n) => heard.push(`a-only ${n}`))
    feed.all((id, n) => heard.push(`all ${id} ${n}`))
    feed.emit('a', 1)
    feed.emit('b', 2)
    expect(heard).toEqual(['a-only 1', 'all a 1', 'all b 2'])
  })

  it('tells a listener nothing once it stopped listening', () => {
    const feed = new Feed<[n: number]>(() => {})
    const heard: number[] = []
    const off = feed.of('a', (n) => heard.push(n))
    const offAll = feed.all((_id, n) => heard.push(-n))
    feed.emit('a', 1)
    off()
    offAll()
    feed.emit('a', 2)
    expect(heard).toEqual([1, -1])
  })

  it('reports a listener that throws, and still tells the others', () => {
    const failures: unknown[] = []
    const feed = new Feed<[n: number]>((err) => failures.push(err))
    const heard: number[] = []
    feed.of('a', () => {
      throw new Error('broken')
    })
    feed.of('a', (n) => heard.push(n))
    feed.emit('a', 7)
    expect(heard).toEqual([7])
    expect(failures).toEqual([new Error('broken')])
  })
})
