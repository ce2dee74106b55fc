// The soak's traffic, each kind from publishers that send one after another at a steady pace (late
// ones catch up rather than skip): GitHub's own example deliveries signed as GitHub signs them, each
// with its X-GitHub-Delivery (the key a retry repeats); operators' lines in the web chat, each to one
// session, with an Idempotency-Key; and permission prompts that channels raise for operators.
import { createHmac, randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { githubExamples } from '../../test/fixtures/webhooks/github-examples.js'
import type { SoakChannel } from './channel.js'
import type { Ledger } from './ledger.js'
import type { Operator } from './operator.js'

/** The GitHub events channels follow, one topic each (`github.<event>`): with 100 channels, 5 a topic. */
export const GITHUB_EVENTS = [
  'push',
  'pull_request',
  'issues',
  'issue_comment',
  'workflow_run',
  'workflow_job',
  'check_run',
  'check_suite',
  'release',
  'create',
  'delete',
  'deployment_status',
  'pull_request_review',
  'pull_request_review_comment',
  'discussion',
  'label',
  'milestone',
  'fork',
  'star',
  'repository',
] as const

/** How long a publisher retries one event the hub did not take before the run is void. */
const GIVE_UP_MS = 60_000

export interface Pace {
  /** Traffic stops at this time on `now`'s clock. */
  until: number
  now: () => number
  random: () => number
}

/** Calls `send(i)` `perSecond` times a second from `start` until `until`, one call finished before the next. */
async function paced(pace: Pace, perSecond: number, send: (i: number) => Promise<void>): Promise<void> {
  const start = pace.now()
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / perSecond
    // A late publisher catches up, but only until the end: after it, the run is over for everyone.
    if (due >= pace.until || pace.now() >= pace.until) return
    const wait = due - pace.now()
    if (wait > 0) await sleep(wait)
    await send(i)
  }
}

/**
 * Retries a POST the hub did not answer with 2xx or 4xx, with the same key, until GIVE_UP_MS; then
 * null: the event counts as sent and never accepted (a missed target), and the publisher goes on.
 */
async function withRetries<T>(
  what: string,
  post: () => Promise<{ status: number; value: T }>,
): Promise<T | null> {
  const first = Date.now()
  for (;;) {
    try {
      const { status, value } = await post()
      if (status < 300) return value
      if (status < 500) throw new Refused(`${what}: HTTP ${status}`)
    } catch (err) {
      if (err instanceof Refused) throw err
    }
    if (Date.now() - first > GIVE_UP_MS) {
      console.error(`${what}: not taken for ${GIVE_UP_MS} ms`)
      return null
    }
    await sleep(100)
  }
}

class Refused extends Error {}

export interface Webhooks {
  urls: string[]
  secret: string
  publishers: number
  perSecond: number
  /** Channel indices following each GitHub event. */
  followers: Map<string, number[]>
}

export function webhookTraffic(w: Webhooks, ledger: Ledger, pace: Pace): Promise<void>[] {
  const wanted = new Set<string>(GITHUB_EVENTS)
  const examples = githubExamples()
    .filter((e) => wanted.has(e.event))
    .map((e) => ({ event: e.event, raw: Buffer.from(JSON.stringify(e.payload)) }))
    .map((e) => ({ ...e, signature: `sha256=${createHmac('sha256', w.secret).update(e.raw).digest('hex')}` }))
  return Array.from({ length: w.publishers }, (_, p) =>
    paced(pace, w.perSecond / w.publishers, async (i) => {
      const example = examples[Math.floor(pace.random() * examples.length)] as (typeof examples)[number]
      const url = `${w.urls[p % w.urls.length]}/hooks/github`
      const headers = {
        'content-type': 'application/json',
        'x-github-event': example.event,
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': example.signature,
      }
      const postedAt = pace.now()
      ledger.posted('webhook')
      const id = await withRetries(`webhook ${p}/${i}`, async () => {
        const res = await fetch(url, {
          method: 'POST',
          headers,
          body: example.raw,
          signal: AbortSignal.timeout(10_000),
        })
        const body = (await res.json().catch(() => ({}))) as { id?: string; events?: { id: string }[] }
        return { status: res.status, value: body.id ?? body.events?.[0]?.id ?? '?' }
      })
      // An ignored delivery (none of these examples is one) answers 200 with no event: nothing owed.
      if (id !== null && id !== '?')
        ledger.accepted('webhook', id, p, i, postedAt, w.followers.get(example.event) ?? [])
    }),
  )
}

export function chatTraffic(
  operators: Operator[],
  channels: SoakChannel[],
  perSecond: number,
  ledger: Ledger,
  pace: Pace,
): Promise<void>[] {
  return operators.map((op) =>
    paced(pace, perSecond / operators.length, async (i) => {
      const to = channels[Math.floor(pace.random() * channels.length)] as SoakChannel
      const key = randomUUID()
      const postedAt = pace.now()
      ledger.posted('chat')
      const id = await withRetries(`chat ${op.index}/${i}`, async () => {
        const { status, id } = await op.chat(to.name, `soak line ${i} from operator ${op.index}`, key)
        return { status, value: id ?? '?' }
      })
      if (id !== null) ledger.accepted('chat', id, op.index, i, postedAt, [to.index])
    }),
  )
}

/** Prompt codes as Claude Code makes them: five letters a-z without l. */
const LETTERS = 'abcdefghijkmnopqrstuvwxyz'

export function decisionTraffic(
  channels: SoakChannel[],
  perSecond: number,
  ledger: Ledger,
  pace: Pace,
): Promise<void> {
  const used = channels.map(() => new Set<string>())
  return paced(pace, perSecond, async () => {
    const channel = channels[Math.floor(pace.random() * channels.length)] as SoakChannel
    const taken = used[channel.index] as Set<string>
    let code = ''
    do code = Array.from({ length: 5 }, () => LETTERS[Math.floor(pace.random() * LETTERS.length)]).join('')
    while (taken.has(code))
    taken.add(code)
    ledger.raise(channel.index, code)
    await channel.raise(code)
  })
}

/**
 * Operators answering the prompts their feed tells them of: two of them, picked by the decision's
 * id, race to Allow each one, as two people at two screens would; the hub takes one (200) and
 * refuses the other (409), and the channel must hear one verdict.
 */
export async function answerDecisions(operators: Operator[], ledger: Ledger): Promise<void> {
  const following = operators.map((op) => {
    const answering = new Set<string>()
    return op.follow((row) => {
      if (row.kind !== 'permission') return
      if (row.status !== 'open') {
        answering.delete(row.id)
        return
      }
      const first = hash(row.id) % operators.length
      const mine = op.index === first || op.index === (first + 1) % operators.length
      if (!mine || answering.has(row.id)) return
      answering.add(row.id)
      void op.answer(row.id).then(
        (status) => ledger.answered(status),
        () => ledger.answered(0),
      )
    })
  })
  await Promise.all(following)
}

function hash(text: string): number {
  let h = 0
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) >>> 0
  return h
}
