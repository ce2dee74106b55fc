// Claude Code's own faults (issue 37, item 3), with the real CLI offline against the fake Messages API:
// a CLI killed mid-turn, a transcript that stops being written (a full disk), a hook that answers too
// late, a channel Claude Code takes in late. Each event ends in context or `unconfirmed` with why,
// operators hear of it, it goes down the ladder, and nothing waits without a bound.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { expect, it } from 'vitest'
import { textOf } from '../fakes/anthropic.js'
import { adminCall, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'
import { postWebhook, waitForState } from '../helpers/receipts.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld()

/** The Claude Code processes running in `cwd`, by pid. */
function claudeProcessesIn(cwd: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv0 = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if (/claude(\.exe)?$/.test(argv0) && readlinkSync(`/proc/${entry}/cwd`) === cwd)
        found.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

/** A promise the test resolves: the fake model holds a turn's stream until then. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => {
    open = r
  })
  return { opened, open }
}

it("marks unconfirmed, tells operators and sends with the session's next line the event a driven CLI SIGKILLed mid-turn had queued", {
  timeout: 90_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  const operator = await world.home.addSender('ops', true)
  await startDrivingHub(world)
  const ops = await SseReader.open(world.home.url, operator)
  world.closers.push(() => ops.close())
  const held = gate()
  world.closers.push(held.open)
  world.fake.respond((request) =>
    textOf(request.messages).includes('start the long turn') &&
    !textOf(request.messages).includes('in flight when the CLI died')
      ? { text: 'working on it for a long while', pause: { at: 4, until: held.opened } }
      : { text: 'ok' },
  )
  const { json: session } = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'start the long turn',
    options: { cwd: world.claude.cwd },
    topics: ['ci'],
  })
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('start the long turn')),
    30_000,
    'the long turn to start',
  )
  // The model is answering: the CLI queues the event's line behind the turn.
  const id = await postWebhook(world, 'ci', secret, 'in flight when the CLI died')
  await waitForState(world, [id], 'queued', 20_000)
  const [pid] = claudeProcessesIn(world.claude.cwd)
  expect(pid).toBeDefined()
  process.kill(pid as number, 'SIGKILL')

  const [receipt] = await waitForState(world, [id], 'unconfirmed', 20_000)
  expect(receipt).toMatchObject({ subscriber: `session:${session.id}`, in_context: null })
  expect(receipt?.reason).toMatch(
    /^the CLI ended before the line carrying it entered the conversation \(the CLI exited with signal SIGKILL/,
  )
  const notice = await ops.waitFor('notice', 10_000)
  expect(notice.data).toMatchObject({ event: id })
  expect(String((notice.data as { text: string }).text)).toMatch(/goes in with the session's next line/)

  // Down the ladder: the session's next line (which resumes it) carries the event first.
  const next = await adminCall(world, 'POST', `/api/sessions/${session.id}/messages`, { text: 'next line' })
  expect(next.status).toBe(202)
  const [again] = await waitForState(world, [id], 'in_context', 60_000)
  expect(again?.tries).toBe(2)
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('in flight when the CLI died')),
    30_000,
    'the model to be shown the event',
  )
  // Taken once: a later line does not carry it again.
  await adminCall(world, 'POST', `/api/sessions/${session.id}/messages`, { text: 'next line once more' })
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('next line once more')),
    30_000,
    'the third line',
  )
  const last = world.fake.requests.at(-1)
  expect(textOf(last?.messages ?? []).split('in flight when the CLI died').length - 1).toBe(1)
})
