import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { heartbeat, MISSES } from './heartbeat.js'

/** A WebSocket's end as heartbeat sees it: pings counted, terminate ends it with its close. */
class FakeSocket extends EventEmitter {
  pings = 0
  terminated = false
  ping(): void {
    this.pings++
  }
  terminate(): void {
    this.terminated = true
    this.emit('close')
  }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

it('ends a link that answered nothing for three heartbeats, and says so once', () => {
  const ws = new FakeSocket()
  const dead = vi.fn()
  heartbeat(ws, 1_000, dead)
  vi.advanceTimersByTime(MISSES * 1_000)
  expect(ws.terminated).toBe(false)
  expect(ws.pings).toBe(MISSES)
  vi.advanceTimersByTime(1_000)
  expect(ws.terminated).toBe(true)
  expect(dead).toHaveBeenCalledTimes(1)
  vi.advanceTimersByTime(10_000)
  expect(ws.pings).toBe(MISSES)
})

it('keeps a link whose other end answers its pings or sends messages', () => {
  const ws = new FakeSocket()
  heartbeat(ws, 1_000)
  for (let i = 0; i < 20; i++) {
    vi.advanceTimersByTime(1_000)
    ws.emit(i % 2 ? 'pong' : 'message')
  }
  expect(ws.terminated).toBe(false)
  expect(ws.pings).toBe(20)
})

it('stops pinging once the link closed by itself', () => {
  const ws = new FakeSocket()
  heartbeat(ws, 1_000)
  ws.emit('close')
  vi.advanceTimersByTime(10_000)
  expect(ws.pings).toBe(0)
  expect(ws.terminated).toBe(false)
})

it('does not take its own stall for the other end’s silence: the pong waiting in its socket counts', () => {
  const ws = new FakeSocket()
  heartbeat(ws, 1_000)
  vi.advanceTimersByTime(1_000)
  ws.emit('pong')
  // The process stood still for ten heartbeats (a blocked event loop, SIGSTOP): its clock moved on,
  // and its timer fires once on waking, before it reads the pongs that waited meanwhile.
  vi.setSystemTime(Date.now() + 10_000)
  vi.advanceTimersByTime(1_000)
  expect(ws.terminated).toBe(false)
  for (let i = 0; i < 5; i++) {
    ws.emit('pong')
    vi.advanceTimersByTime(1_000)
  }
  expect(ws.terminated).toBe(false)
})
