// Progress on a platform whose adapter records each call with the time it was made, on a clock the
// test moves: a long turn at `normal` is one message edited at the platform's pace, its end shown
// soon after the last tool, and nothing of a secret in a tool's input reaches the platform.
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import { BRIDGE_PLATFORMS, type BridgeConfig, type BridgePlatform } from '../../core/bridges.js'
import { Redactor } from '../../core/redact.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { BridgeContext } from './context.js'
import { BridgeMemory } from './memory.js'
import { Progress } from './progress.js'
import { type Clock, EDIT_LIMITS } from './progress-pace.js'
import { redacting } from './redacting-adapter.js'
import { Threads } from './threads.js'

const log = pino({ level: 'silent' })
const USER = '42'
const SECRET = 'ghp_0123456789abcdefghijABCDEFGHIJ0123456789'
const HUB_SECRET = 'hub-own-bot-token-0042'

/** A clock that moves only when told to, or when something waits on it. */
function testClock(): Clock & { advance(ms: number): void } {
  let t = 1_000_000
  return {
    now: () => t,
    wait: async (ms) => {
      t += ms
      await new Promise((resolve) => setImmediate(resolve))
    },
    advance(ms) {
      t += ms
    },
  }
}

interface Call {
  kind: 'send' | 'edit'
  chat: string
  messageId: string
  text: string
  at: number
}

function recordingAdapter(platform: BridgePlatform, clock: Clock, calls: Call[]): PlatformAdapter {
  let next = 1
  const refuse = () => Promise.reject(new Error('not in this test'))
  return {
    platform,
    textLimit: 4000,
    start: refuse,
    stop: async () => {},
    format: (markdown) => [{ text: markdown, markup: markdown }],
    send: async (chat, message) => {
      const messageId = String(next++)
      calls.push({ kind: 'send', chat, messageId, text: message.text, at: clock.now() })
      return messageId
    },
    edit: async (chat, messageId, text) => {
      calls.push({ kind: 'edit', chat, messageId, text, at: clock.now() })
    },
    react: refuse,
    typing: async () => {},
    answerPress: async () => {},
    dmChat: async (userId) => userId,
    download: refuse,
  }
}

/** The most calls in any window of `windowMs` (closed at both ends: the strictest count). */
function mostInWindow(times: number[], windowMs: number): number {
  let most = 0
  for (let i = 0; i < times.length; i++) {
    const from = times[i] as number
    most = Math.max(most, times.filter((t) => t >= from && t <= from + windowMs).length)
  }
  return most
}

describe.each(BRIDGE_PLATFORMS)('%s: progress', (platform) => {
  let store: Store
  let hub: Hub
  let progress: Progress
  let memory: BridgeMemory
  const calls: Call[] = []
  const clock = testClock()

  beforeEach(async () => {
    calls.length = 0
    store = openSqliteStore(':memory:')
    hub = memoryHub(store)
    await store.addSender({
      name: `${platform}:${USER}`,
      tokenHash: 'x',
      status: 'allowed',
      operator: true,
    })
    const adapter = redacting(recordingAdapter(platform, clock, calls), new Redactor([HUB_SECRET]))
    memory = new BridgeMemory(store, platform)
    const config = { groups: [], chunkMode: 'newline', policy: 'pairing', token: 't', addedAt: 0 }
    const parts = {
      platform,
      hub,
      sessions: null,
      routines: null,
      log,
      home: '/nonexistent',
      config: () => config as BridgeConfig,
      adapter: () => adapter,
      memory,
    }
    const context: BridgeContext = { ...parts, threads: new Threads(parts) }
    progress = new Progress(context, clock)
  })

  afterEach(async () => {
    progress.stop()
    await store.close()
  })

  async function turnOf(tools: number, input: (i: number) => Record<string, unknown>) {
    for (let i = 0; i < tools; i++) {
      clock.advance(150)
      hub.activity.tell({ kind: 'tool', session: 'work', tool: 'Bash', input: input(i) })
      await new Promise((resolve) => setImmediate(resolve))
    }
    const lastTool = clock.now()
    hub.activity.tell({ kind: 'turn-end', session: 'work', costUsd: 0.0421, durationMs: null, failed: false })
    await progress.idle()
    return lastTool
  }

  it('at normal, shows a 100-tool turn as one message edited within the platform’s limit', async () => {
    await memory.setProgress(USER, 'normal')
    const lastTool = await turnOf(100, (i) => ({ command: `npm test -- part ${i}` }))
    const sends = calls.filter((c) => c.kind === 'send')
    expect(sends).toHaveLength(1)
    expect(new Set(calls.map((c) => c.messageId))).toEqual(new Set([sends[0]?.messageId]))
    const limit = EDIT_LIMITS[platform]
    expect(
      mostInWindow(
        calls.map((c) => c.at),
        limit.windowMs,
      ),
    ).toBeLessThanOrEqual(limit.max)
    // Many tool calls, few edits: they are coalesced.
    expect(calls.length).toBeLessThan(100)
    const last = calls.at(-1) as Call
    expect(last.text).toMatch(/^✓ .*turn finished · .* · \$0\.04(?!\d)/)
    expect(last.text).toContain('$ npm test -- part 99')
    expect(last.at - lastTool).toBeLessThanOrEqual(limit.everyMs)
  })

  it('never sends a secret in a tool’s input, nor the hub’s own', async () => {
    await memory.setProgress(USER, 'full')
    await turnOf(3, (i) => ({
      command: [
        `curl -H "Authorization: Bearer ${SECRET}" https://api.example.com/${i}`,
        `echo ${HUB_SECRET}`,
        `export PASSWORD=hunter2hunter2 && deploy`,
      ][i],
    }))
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      expect(call.text).not.toContain(SECRET)
      expect(call.text).not.toContain(HUB_SECRET)
      expect(call.text).not.toContain('hunter2hunter2')
    }
    expect(calls.at(-1)?.text).toContain('$ curl -H "Authorization: Bearer ‹redacted›"')
  })

  it('at minimal, says only that the turn finished; off, says nothing', async () => {
    await memory.setProgress(USER, 'minimal')
    await turnOf(5, () => ({ command: 'ls' }))
    expect(calls.map((c) => c.kind)).toEqual(['send'])
    expect(calls[0]?.text).toMatch(/^✓ .*turn finished · 5 tool calls · \d+s · \$0\.04$/)
    await memory.setProgress(USER, 'off')
    calls.length = 0
    await turnOf(5, () => ({ command: 'ls' }))
    expect(calls).toEqual([])
  })
})
