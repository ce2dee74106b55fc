// Issue 23's chaos run: an interactive Claude Code session under tmux with the channel loaded as a
// development channel, 300 webhook events sent with an idempotency key each while the hub is
// SIGKILLed three times. A sender that gets no answer tries again with the same key, as a real one
// does; some answered ones are sent again. The channel starts the hub each time it is gone. In the
// end every key is one event, each event's receipt reads in_context, and Claude Code's transcript
// puts each into the conversation exactly once.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { CLAUDE_BIN, switchboardChannel } from '../helpers/claude.js'
import { e2eWorld, startDrivingHub, waitForChannel } from '../helpers/e2e.js'
import { alive, waitFor } from '../helpers/home.js'
import { inContextCounts, waitForState } from '../helpers/receipts.js'
import { TmuxSession } from '../helpers/tmux.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

const EVENTS = 300
/** The hub is killed once this many events have been answered, posts going on meanwhile. */
const KILL_AFTER = [70, 150, 230]
/** Senders posting at once. */
const SENDERS = 4

/** The running hub's pid; null while none has written hub.json, or one is writing it. */
function hubPid(): number | null {
  try {
    return world.home.hubPid()
  } catch {
    return null // read between the new hub's truncating and writing it
  }
}

/** One POST with a key: the event's id, whether the hub called it a duplicate, or null when no hub answered. */
async function postOnce(
  secret: string,
  key: string,
  body: string,
): Promise<{ id: string; duplicate: boolean } | null> {
  let status: number
  let text: string
  try {
    const res = await fetch(`${world.home.url}/hooks/ci`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'idempotency-key': key },
      body,
    })
    status = res.status
    text = await res.text()
  } catch {
    return null // refused or cut off: the hub is down, or died while answering
  }
  if (status !== 200 && status !== 202) throw new Error(`webhook answered ${status}: ${text}`)
  const json = JSON.parse(text) as { id: string; duplicate: boolean }
  expect(status === 200).toBe(json.duplicate)
  return json
}

/** Posts until a hub answers, with the same key each time, as a sender that retries does. */
async function deliver(secret: string, key: string, body: string, tries: { n: number }) {
  const giveUp = Date.now() + 60_000
  for (let wait = 50; Date.now() < giveUp; wait = Math.min(wait * 2, 500)) {
    tries.n++
    const answer = await postOnce(secret, key, body)
    if (answer) return answer
    await new Promise((r) => setTimeout(r, wait))
  }
  throw new Error(`no hub answered ${key} for 60 s`)
}

it('keeps 300 keyed events sent while the hub is SIGKILLed 3 times: none lost, none twice, each in context once (tmux)', {
  timeout: 300_000,
}, async () => {
  const secret = await world.home.addSource('ci')
  await startDrivingHub(world)
  const channel = switchboardChannel(world.home, 'chaos')
  world.claude.addUserMcpServer('switchboard', channel)
  world.fake.respond(() => ({ text: 'noted' }))
  const terminal = new TmuxSession(
    [CLAUDE_BIN, '--dangerously-load-development-channels', 'server:switchboard'],
    { cwd: world.claude.cwd, env: world.claude.env(world.fake.url), timeoutSeconds: 300 },
  )
  world.closers.push(() => terminal.kill())
  const screen = (err: Error) => new Error(`${err.message}\n--- screen:\n${terminal.screen()}`)
  await terminal.waitForScreen(/I am using this for local development/)
  terminal.keys('Enter')
  await waitForChannel(world)
  const warmUp = await deliver(secret, 'warm-up', 'warm-up', { n: 0 })
  await waitForState(world, [warmUp.id], 'in_context', 60_000).catch((err) => {
    throw screen(err)
  })

  // --- chaos: senders post, a killer SIGKILLs the hub three times, the channel starts it again ---
  const answers = new Map<string, Set<string>>()
  const answered = (key: string, id: string) => answers.set(key, (answers.get(key) ?? new Set()).add(id))
  const tries = { n: 0 }
  let repeats = 0
  let next = 0
  const sender = async () => {
    while (next < EVENTS) {
      const i = next++
      const key = `chaos-${i}`
      answered(key, (await deliver(secret, key, `chaos event ${i}`, tries)).id)
      // Every seventh one is sent again (a sender that could not tell it landed): the same event.
      if (i % 7 === 3) {
        repeats++
        const again = await deliver(secret, key, `chaos event ${i}`, tries)
        expect(again.duplicate).toBe(true)
        answered(key, again.id)
      }
    }
  }
  const killed: number[] = []
  const killer = async () => {
    for (const after of KILL_AFTER) {
      await waitFor(() => answers.size >= after, 120_000, `${after} events answered`)
      const pid = world.home.hubPid() as number
      await world.home.stopHub('SIGKILL')
      killed.push(pid)
      // The channel finds no hub and starts one; the senders' retries go on meanwhile.
      await waitFor(
        () => {
          const now = hubPid()
          return now !== null && !killed.includes(now) && alive(now)
        },
        30_000,
        'a new hub started by the channel',
      )
      await world.home.waitForHub(30_000)
    }
  }
  await Promise.all([killer(), ...Array.from({ length: SENDERS }, sender)])
  expect(killed).toHaveLength(3)

  // Every key is one event: every answer for it named the same id, and the store holds it once.
  const ids = [...answers.values()].map((set) => [...set])
  expect(ids.filter((set) => set.length !== 1)).toEqual([])
  const eventIds = ids.map(([id]) => id as string)
  expect(new Set(eventIds).size).toBe(EVENTS)
  const db = new Database(join(world.home.dir, 'switchboard.db'), { readonly: true })
  const stored = db.prepare("SELECT id, idem_key FROM events WHERE source = 'ci'").all() as {
    id: string
    idem_key: string
  }[]
  db.close()
  expect(stored).toHaveLength(EVENTS + 1)
  expect(new Set(stored.map((e) => e.idem_key)).size).toBe(EVENTS + 1)
  expect(new Set(stored.map((e) => e.id))).toEqual(new Set([warmUp.id, ...eventIds]))

  // Each in context, by its receipt and by the transcript, exactly once.
  const receipts = await waitForState(world, eventIds, 'in_context', 120_000).catch((err) => {
    throw screen(err)
  })
  expect(receipts.every((r) => r.subscriber === 'chaos' && r.in_context !== null)).toBe(true)
  const counts = inContextCounts(world)
  const notOnce = [warmUp.id, ...eventIds].filter((id) => counts.get(id) !== 1)
  expect(notOnce.map((id) => [id, counts.get(id) ?? 0])).toEqual([])
  console.log(
    `chaos: ${EVENTS} events, ${repeats} sent again, ${tries.n} posts in all, hubs killed: ${killed.join(', ')}`,
  )
})
