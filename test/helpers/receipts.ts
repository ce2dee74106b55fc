// For the receipts tests (issue 23): what the hub says of an event's deliveries, and what Claude
// Code's own transcripts say of it, read as the channel reads them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { marksOf } from '../../src/claude/transcript-marks.js'
import type { ReceiptView } from '../../src/core/receipts.js'
import { textOf } from '../fakes/anthropic.js'
import { adminCall, type World } from './e2e.js'
import { waitFor } from './home.js'

export async function deliveriesOf(world: World, id: string): Promise<ReceiptView[]> {
  const { status, json } = await adminCall<{ deliveries: ReceiptView[] }>(world, 'GET', `/api/events/${id}`)
  if (status !== 200) throw new Error(`GET /api/events/${id} answered ${status}`)
  return json.deliveries
}

/** Waits until every one of `ids` has a delivery in `state`; returns them. */
export async function waitForState(
  world: World,
  ids: string[],
  state: ReceiptView['state'],
  ms: number,
): Promise<ReceiptView[]> {
  let last: Record<string, ReceiptView[]> = {}
  try {
    await waitFor(
      async () => {
        last = Object.fromEntries(
          await Promise.all(ids.map(async (id) => [id, await deliveriesOf(world, id)])),
        )
        return ids.every((id) => last[id]?.some((d) => d.state === state))
      },
      ms,
      `${ids.length} event(s) ${state}`,
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- deliveries:\n${JSON.stringify(last, null, 1)}`)
  }
  return ids.map((id) => last[id]?.find((d) => d.state === state) as ReceiptView)
}

/** Per event id, how many transcript lines of this Claude HOME put it into Claude's context. */
export function inContextCounts(world: World): Map<string, number> {
  const counts = new Map<string, number>()
  for (const line of transcriptLines(world)) {
    const marks = marksOf(line)
    if (marks?.mark === 'in_context') for (const id of marks.ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

/** POSTs `body` to a webhook source; its event id. */
export async function postWebhook(
  world: World,
  source: string,
  secret: string,
  body: string,
): Promise<string> {
  const res = await fetch(`${world.home.url}/hooks/${source}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { id: string }).id
}

/**
 * Starts the long turn (a webhook saying "start the long turn", which the test's model holds) and,
 * once the model has it, POSTs `count` events `<label> 0`, `<label> 1`, … meanwhile: their ids.
 */
export async function sendDuringLongTurn(
  world: World,
  secret: string,
  count: number,
  label: string,
): Promise<string[]> {
  await postWebhook(world, 'ci', secret, 'start the long turn')
  await waitFor(
    () => world.fake.requests.some((r) => textOf(r.messages).includes('start the long turn')),
    30_000,
    'the long turn to start',
  )
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push(await postWebhook(world, 'ci', secret, `${label} ${i}`))
  return ids
}

/**
 * Per `<event id> <server>`, how many transcript lines of this Claude HOME put the event into Claude's
 * context through that MCP server (the tag's `source`): which channel's notification got it there.
 */
export function inContextByServer(world: World): Map<string, number> {
  const counts = new Map<string, number>()
  for (const line of transcriptLines(world)) {
    if (marksOf(line)?.mark !== 'in_context') continue
    for (const m of contextText(line).matchAll(/<channel\b([^>]*)>/g)) {
      const attrs = m[1] as string
      const id = /\bevent_id="([^"]+)"/.exec(attrs)?.[1]
      const source = /\bsource="([^"]+)"/.exec(attrs)?.[1]
      if (id) counts.set(`${id} ${source}`, (counts.get(`${id} ${source}`) ?? 0) + 1)
    }
  }
  return counts
}

/** The text of a line that Claude is shown: a user line's content, an attachment's prompt or content. */
function contextText(line: unknown): string {
  const l = line as {
    type?: string
    message?: { content?: unknown }
    attachment?: { prompt?: unknown; content?: unknown }
  }
  const parts = l.type === 'user' ? [l.message?.content] : [l.attachment?.prompt, l.attachment?.content]
  return parts
    .flat()
    .map((p) => (typeof p === 'string' ? p : p && typeof p === 'object' && 'text' in p ? String(p.text) : ''))
    .join('\n')
}

function transcriptLines(world: World): unknown[] {
  const root = join(world.claude.home, '.claude', 'projects')
  let files: string[] = []
  try {
    files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl'))
  } catch {
    return []
  }
  const lines: unknown[] = []
  for (const file of files)
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (!line.includes('event_id=')) continue
      try {
        lines.push(JSON.parse(line))
      } catch {
        // a line being written
      }
    }
  return lines
}

/** The `switchboard channel` processes running for this world's Switchboard home, by any launcher. */
export function channelProcesses(world: World): number[] {
  const home = `SWITCHBOARD_HOME=${world.home.dir}`
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (!argv.some((a) => a.endsWith('cli/main.js')) || !argv.includes('channel')) continue
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(home)) found.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

/** The transcript lines that carry events, one short line each: for a failure's message. */
export function transcriptSummary(world: World): string {
  return transcriptLines(world)
    .map((line) => {
      const l = line as {
        type?: string
        operation?: string
        timestamp?: string
        attachment?: { type?: string }
      }
      const ids = [...JSON.stringify(line).matchAll(/event_id=\\"(ev_\w+)/g)].map((m) => m[1])
      return `${l.timestamp} ${l.type} ${l.operation ?? l.attachment?.type ?? ''} ${ids.join(',')}`
    })
    .join('\n')
}
