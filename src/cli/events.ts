// `switchboard events`: the stored events and how far each delivery of them got (issues 23 and 33):
// stored in the hub, written to the session, in Claude's context, unconfirmed. `list` reads the log a
// page at a time, by source, topic, session and state; `show` one event with its receipts and tries.
import type { Command } from 'commander'
import type { EventRow } from '../core/api/rows.js'
import { invalid } from '../core/errors.js'
import { subscriberNameSchema, topicSchema } from '../core/hub-protocol.js'
import { EVENT_STATES, eventStateSchema } from '../core/receipts.js'
import { check, hubApi } from './options.js'
import { printJson } from './output.js'

const tick = (at: string | null) => (at ? `✓ ${at}` : '·')

const PAGE = 50

interface ListOptions {
  source?: string
  topic?: string
  session?: string
  state?: string
  before?: string
  limit?: string
  json?: boolean
}

export function registerEvents(program: Command): void {
  const events = program.command('events').description('stored events and their delivery receipts')
  events
    .command('list')
    .description(
      "stored events, newest first, with each session's delivery state: stored, written, in Claude's context, unconfirmed (or parked: no session has it)",
    )
    .option('--source <name>', 'from this webhook source (or chat, peer…)')
    .option('--topic <topic>', 'on this topic')
    .option(
      '--session <name>',
      'delivered to this session (its subscriber name, as events show and status print it)',
    )
    .option(
      '--state <state>',
      `with a delivery in this state (the session's, with --session): ${EVENT_STATES.join(', ')}`,
    )
    .option('--before <event>', 'the page before this event (its id, or its seq)')
    .option('--limit <n>', `how many (1 to 200, default ${PAGE})`)
    .option('--json', 'JSON, for scripts')
    .action(async (opts: ListOptions, command: Command) => {
      const state = opts.state === undefined ? undefined : check(eventStateSchema, opts.state, '--state')
      if (state === 'parked' && opts.session)
        throw invalid('a parked event has no session: --state parked takes no --session')
      const limit = opts.limit === undefined ? PAGE : wholeNumber(opts.limit, '--limit', 1, 200)
      // Reports on the hub: none is started, and one that is not running says how to start it.
      const api = hubApi(command, 'cli', false)
      const before = opts.before === undefined ? undefined : await seqOf(api, opts.before)
      const answer = await api.call('events', {
        query: {
          ...(opts.source ? { source: opts.source } : {}),
          ...(opts.topic ? { topic: check(topicSchema, opts.topic, '--topic') } : {}),
          ...(opts.session ? { subscriber: check(subscriberNameSchema, opts.session, '--session') } : {}),
          ...(state ? { state } : {}),
          ...(before === undefined ? {} : { before }),
          limit,
        },
      })
      if (opts.json) return printJson(answer)
      process.stdout.write(`ID\tTIME\tSOURCE\tTOPIC\tDELIVERIES\n`)
      for (const e of answer.events) process.stdout.write(`${listLine(e)}\n`)
      const last = answer.events.at(-1)
      if (last && answer.events.length === limit)
        process.stderr.write(`more: switchboard events list --before ${last.id} (with the same filters)\n`)
    })
  events
    .command('show <id>')
    .description("an event and, per subscriber, its state and receipts: stored, written, in Claude's context")
    .option('--json', 'JSON, for scripts')
    .action(async (id: string, opts: { json?: boolean }, command: Command) => {
      const answer = await hubApi(command).call('event', { params: { id } })
      if (opts.json) return printJson(answer)
      const { event, deliveries, parked } = answer
      const from = event.sender ? `${event.sender} via ${event.source}` : event.source
      process.stdout.write(
        `${event.id}\t${event.topic}\tfrom ${from}\t${new Date(event.createdAt).toISOString()}\n`,
      )
      if (parked)
        process.stdout.write(
          parked.about.length
            ? `it waits for a session of ${parked.about.join(' or ')}: the first one to start gets it\n`
            : `it is about no project: it waits for a session that names its topic ${event.topic} (a project's .switchboard.json, or a source bound to its project)\n`,
        )
      for (const d of deliveries)
        process.stdout.write(
          `${d.subscriber}\t${d.state}\tstored ${tick(d.stored)}\twritten ${tick(d.written)}\tin context ${tick(d.in_context)}\ttries ${d.tries}${d.reason ? `\t${d.reason}` : ''}\n`,
        )
    })
}

/** One event as `events list` prints it: id, time, source, topic, and each subscriber's state. */
function listLine(e: EventRow): string {
  const deliveries = e.deliveries?.length
    ? e.deliveries.map((d) => `${d.subscriber}=${d.state}`).join(' ')
    : 'parked'
  return `${e.id}\t${new Date(e.createdAt).toISOString()}\t${e.source}\t${e.topic}\t${deliveries}`
}

/** The seq a page ends before: given, or the event's whose id is given. */
async function seqOf(api: ReturnType<typeof hubApi>, before: string): Promise<number> {
  if (/^\d+$/.test(before)) return wholeNumber(before, '--before', 1, Number.MAX_SAFE_INTEGER)
  return (await api.call('event', { params: { id: before } })).event.seq
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalid(`${flag} "${text}": a whole number from ${min} to ${max}`)
  return n
}
