// `switchboard events show <id>`: an event and how far each delivery of it got (issue 23): stored in
// the hub, written to the session, in Claude's context, with the tries it took.
import type { Command } from 'commander'
import { hubApi } from './options.js'
import { printJson } from './output.js'

const tick = (at: string | null) => (at ? `✓ ${at}` : '·')

export function registerEvents(program: Command): void {
  const events = program.command('events').description('stored events and their delivery receipts')
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
