// A decision's timeout, on a fake clock: the prompt says when it ends and what happens then; its
// operators are warned once before; nobody answering denies it as the timeout, and the model is told.
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import { clockText } from '../../core/decision-timeout.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Decision, Sender, Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import type { DecisionTimes } from './decisions.js'

let store: Store
let hub: Hub
let alice: Sender
let times: DecisionTimes
const START = new Date(2026, 10, 28, 14, 0, 0).getTime()

beforeEach(async () => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  store = openSqliteStore(':memory:')
  times = { timeoutSeconds: 600, outcome: 'deny', warningSeconds: 60 }
  hub = memoryHub(store, { decisionTimes: () => times })
  alice = await store.addSender({ name: 'alice', tokenHash: 'h-a', status: 'allowed', operator: true })
})
afterEach(async () => {
  vi.useRealTimers()
  await store.close()
})

const itemsOf = async () => hub.outbox.items(alice.id, null)
const warnings = async () =>
  (await itemsOf()).flatMap((i) =>
    i.kind === 'notice' && i.body.id?.startsWith('expiring:') ? [i.body] : [],
  )

function ask(boundMs?: number) {
  const answers: Decision[] = []
  const opened = hub.decisions.openAwaited(
    {
      kind: 'permission',
      owner: 'api',
      request: { tool_name: 'Bash', input: { command: 'rm -rf build' } },
      ...(boundMs === undefined ? {} : { boundMs }),
    },
    (d) => answers.push(d),
  )
  return { opened, answers }
}

it('says in the prompt when it is denied, warns once a minute before, then denies it as the timeout', async () => {
  const { opened, answers } = ask()
  const decision = await opened
  const [prompt] = await itemsOf()
  expect(prompt?.body).toMatchObject({ expires_at: START + 600_000, on_timeout: 'deny' })
  expect(prompt?.kind === 'permission' && prompt.body.text).toContain(
    `(Denied at ${clockText(START + 600_000)} unless answered)`,
  )

  await vi.advanceTimersByTimeAsync(539_000)
  expect(await warnings()).toEqual([])
  await vi.advanceTimersByTimeAsync(1_000)
  const [warning] = await warnings()
  expect(warning?.text).toBe(
    `api: Bash is still waiting for an answer. Denied at 14:10 unless answered (in 1 min) — reply "yes ${decision.code}" or "no ${decision.code}"`,
  )
  expect(answers).toEqual([])

  await vi.advanceTimersByTimeAsync(60_000)
  expect(answers).toHaveLength(1)
  expect(answers[0]).toMatchObject({
    status: 'answered',
    answeredBy: 'timeout',
    answer: {
      behavior: 'deny',
      message: "Denied by Switchboard's decision timeout: no one answered within 10 min",
    },
  })
  const outcome = (await itemsOf()).find((i) => i.kind === 'decision')
  expect(outcome?.body).toMatchObject({
    status: 'answered',
    answered_by: 'timeout',
    reason: 'Denied: no one answered within 10 min',
  })
  // Once: nothing more is told however long the clock runs.
  await vi.advanceTimersByTimeAsync(3_600_000)
  expect(await warnings()).toHaveLength(1)
})

it('neither warns nor denies a decision answered in time', async () => {
  const { opened, answers } = ask()
  const decision = await opened
  await vi.advanceTimersByTimeAsync(30_000)
  await hub.decisions.answer(decision, { behavior: 'allow' }, 'alice')
  await vi.advanceTimersByTimeAsync(3_600_000)
  expect(await warnings()).toEqual([])
  expect(answers.map((d) => d.answeredBy)).toEqual(['alice'])
})

it('lets a driven session wait on when the outcome is the terminal, which it has none of', async () => {
  times = { timeoutSeconds: 60, outcome: 'terminal', warningSeconds: 30 }
  const { opened, answers } = ask()
  const decision = await opened
  expect(decision.expiresAt).toBeNull()
  expect((await itemsOf())[0]?.body).not.toHaveProperty('expires_at')
  await vi.advanceTimersByTimeAsync(3_600_000)
  expect(answers).toEqual([])
  expect(await warnings()).toEqual([])
})

it('gives a terminal’s dialog back at its hook’s bound when that comes first, as the timeout', async () => {
  const { opened, answers } = ask(300_000)
  const decision = await opened
  expect(decision).toMatchObject({ expiresAt: START + 300_000, request: { on_timeout: 'terminal' } })
  await vi.advanceTimersByTimeAsync(240_000)
  expect((await warnings())[0]?.text).toContain('Goes back to the terminal at 14:05 (in 1 min)')
  await vi.advanceTimersByTimeAsync(60_000)
  expect(answers[0]).toMatchObject({ answeredBy: 'timeout', answer: { on_timeout: 'terminal' } })
  const outcome = (await itemsOf()).find((i) => i.kind === 'decision')
  expect(outcome?.body).toMatchObject({ reason: 'Back to the terminal: no one answered within 5 min' })
})

it('does not warn when the warning would come before the prompt was even asked', async () => {
  times = { timeoutSeconds: 30, outcome: 'deny', warningSeconds: 60 }
  const { opened, answers } = ask()
  await opened
  await vi.advanceTimersByTimeAsync(30_000)
  expect(await warnings()).toEqual([])
  expect(answers[0]?.answeredBy).toBe('timeout')
})
