// The hooks rung's receipts, against a stand-in for the hub: what a hook takes is written, in context
// once the transcript shows it, unconfirmed once the channel's deadlines (all its tries) have passed,
// and handed over whatever befalls its receipts.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { HookInput } from '../../core/claude-hooks.js'
import type { StoredEvent } from '../../core/event.js'
import type { ClientMessage } from '../../core/hub-protocol.js'
import type { DeliveryReceipt } from '../../core/receipts.js'
import type { Hub } from '../core/hub.js'
import { HookDeliveries } from './hook-deliveries.js'

type Receipt = Extract<ClientMessage, { type: 'receipt' }>

let root: string
let file: string
let deliveries: HookDeliveries
let receipts: { subscriber: string; receipt: Receipt; after: string | undefined }[]
let pending: StoredEvent[]
let failReceipts: boolean
/** What the store says of each event's deliveries before the hook takes it. */
let before: Map<string, DeliveryReceipt[]>
/** The channel's deadlines the hub waits by: long, unless a test is about running out of them. */
let times: { confirmMs: number; confirmTries: number }

const event = (id: string): StoredEvent =>
  ({ id, seq: 1, topic: 'ci', source: 'ci', content: id, meta: {}, created_at: 0 }) as unknown as StoredEvent

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hook-deliveries-'))
  const projects = join(root, 'projects')
  mkdirSync(join(projects, '-work-api'), { recursive: true })
  file = join(projects, '-work-api', 's.jsonl')
  writeFileSync(file, '')
  receipts = []
  pending = []
  failReceipts = false
  before = new Map()
  times = { confirmMs: 10_000, confirmTries: 2 }
  const hub = {
    takeForHook: async () => pending.splice(0),
    store: { eventReceipts: async (id: string) => before.get(id) ?? [] },
    receipt: async (subscriber: string, receipt: Receipt, after?: string) => {
      if (failReceipts) throw new Error('the store is gone')
      receipts.push({ subscriber, receipt, after })
    },
  } as unknown as Hub
  deliveries = new HookDeliveries(hub, pino({ level: 'silent' }), () => times, {
    projects,
    uid: process.getuid?.() ?? null,
  })
})

afterEach(() => {
  deliveries.close()
  rmSync(root, { recursive: true, force: true })
})

const input = (path: string = file) =>
  ({
    session_id: 's',
    cwd: '/work/api',
    hook_event_name: 'UserPromptSubmit',
    transcript_path: path,
  }) as HookInput

const contextLine = (id: string) =>
  `${JSON.stringify({
    type: 'attachment',
    attachment: { type: 'hook_additional_context', content: [`<channel event_id="${id}">x</channel>`] },
    timestamp: '2026-01-01T00:00:01.000Z',
  })}\n`

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
}

const stages = () => receipts.map((r) => `${r.receipt.event_id} ${r.receipt.stage} ${r.receipt.tries}`)

it('records what a hook takes as written, then in context from the transcript line, with its time', async () => {
  pending = [event('ev_a'), event('ev_b')]
  expect((await deliveries.take('api', input())).map((e) => e.id)).toEqual(['ev_a', 'ev_b'])
  expect(stages()).toEqual(['ev_a written 1', 'ev_b written 1'])
  appendFileSync(file, contextLine('ev_a') + contextLine('ev_b'))
  await until(() => receipts.length === 4)
  expect(stages().slice(2)).toEqual(['ev_a in_context 1', 'ev_b in_context 1'])
  expect(receipts[2]?.receipt.at).toBe(Date.parse('2026-01-01T00:00:01.000Z'))
  expect(receipts.every((r) => r.subscriber === 'api')).toBe(true)
})

it("says unconfirmed, why and what becomes of it, once all the channel's tries would have passed", async () => {
  times = { confirmMs: 100, confirmTries: 2 }
  pending = [event('ev_a')]
  await deliveries.take('api', input(join(root, 'projects', '-work-api', 'none.jsonl')))
  await until(() => receipts.length === 2)
  expect(receipts[1]?.receipt).toMatchObject({ stage: 'unconfirmed', tries: 1 })
  expect(receipts[1]?.receipt.reason).toMatch(/none\.jsonl was not found/)
  expect(receipts[1]?.after).toMatch(/nothing will again/)
})

it("counts a hand-over down the ladder as the try after the channel's last", async () => {
  before.set('ev_a', [
    {
      subscriber: 'api',
      state: 'unconfirmed',
      stored: 0,
      written: 1,
      inContext: null,
      tries: 5,
      reason: 'the dev flag is missing',
    },
  ])
  pending = [event('ev_a'), event('ev_b')]
  await deliveries.take('api', input())
  expect(stages()).toEqual(['ev_a written 6', 'ev_b written 1'])
})

it('hands the events over when their receipts cannot be recorded', async () => {
  pending = [event('ev_a')]
  failReceipts = true
  expect((await deliveries.take('api', input())).map((e) => e.id)).toEqual(['ev_a'])
})
