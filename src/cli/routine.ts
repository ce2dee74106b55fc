// `switchboard routine`: routines (issue 25, docs/routines.md): add one from its JSON file, list,
// show, pause, resume, remove, its runs, fire it by hand, replay an ended run, and test an event
// against it (a dry run).
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import * as z from 'zod'
import { givenEventSchema } from '../core/api/schemas.js'
import { invalid } from '../core/errors.js'
import { parseJson } from '../core/json.js'
import { formatUsd } from '../core/money.js'
import { type RoutineRun, type RoutineView, routineProblems, startFolderText } from '../core/routines.js'
import { check, hubApi } from './options.js'
import { printJson } from './output.js'

/** A JSON file (`-`: standard input), read and parsed, or one line saying why not. */
function readJson(file: string, what: string): unknown {
  let text: string
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (err) {
    throw invalid(`${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
  try {
    return parseJson(text)
  } catch (err) {
    throw invalid(`${what} ${file}: not JSON (${(err as Error).message})`)
  }
}

function eventFrom(file: string | undefined) {
  if (file === undefined) return {}
  const parsed = givenEventSchema.safeParse(readJson(file, '--event'))
  if (!parsed.success) {
    const [issue] = parsed.error.issues
    // A sender's body (GitHub's, say) has fields of its own: it is for a source's preset to read.
    const hint = ' (not an event: topic, content, meta, …; a webhook body? name its source: --source <name>)'
    throw invalid(`--event ${file}: ${issue?.path.join('.') || 'the event'}: ${issue?.message}${hint}`)
  }
  return parsed.data
}

/** `Name: value`, as curl's -H takes it. */
function headerFrom(text: string, all: Record<string, string>): Record<string, string> {
  const at = text.indexOf(':')
  const name = at > 0 ? text.slice(0, at).trim() : ''
  if (!/^[A-Za-z0-9-]{1,100}$/.test(name))
    throw invalid(`--header ${JSON.stringify(text)}: give it as "Name: value", e.g. "X-GitHub-Event: issues"`)
  return { ...all, [name]: text.slice(at + 1).trim() }
}

/** The request a source's sender would make: the file's bytes as its body, and the headers given. */
function webhookFrom(file: string, source: string, headers: Record<string, string>) {
  try {
    return { source, headers, body: readFileSync(file === '-' ? 0 : file, 'utf8') }
  } catch (err) {
    throw invalid(`--event ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
}

function describeRoutine(r: RoutineView): string {
  const { spec } = r
  const trigger =
    spec.trigger.kind === 'events'
      ? `on ${spec.trigger.topics.join(',')}`
      : spec.trigger.kind === 'schedule'
        ? `at ${spec.trigger.cron} (${spec.trigger.timeZone}; missed: ${spec.trigger.missed})`
        : 'by hand'
  const action =
    spec.action.kind === 'start'
      ? `starts a session in ${startFolderText(spec.action)}`
      : `delivers to ${spec.action.session}`
  const flow = [
    spec.key ? `key ${spec.key}` : '',
    spec.debounceSeconds ? `debounce ${spec.debounceSeconds}s` : '',
    `at most ${spec.concurrency} at once`,
    spec.gate ? 'gated' : '',
  ].filter(Boolean)
  return `${r.name}${r.paused ? ' (paused)' : ''}\t${trigger}\t${action}\t${flow.join(', ')}`
}

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString())

function describeRun(r: RoutineRun): string {
  return [
    r.id,
    r.state,
    r.trigger,
    `key=${r.key || '-'}`,
    `events=${r.events}`,
    `session=${r.sessionId ?? '-'}`,
    `cost=${formatUsd(r.costUsd)}`,
    `turns=${r.turns}`,
    when(r.createdAt),
    r.reason ?? '',
  ].join('\t')
}

const limitSchema = z.coerce.number({ error: '--limit must be a number' }).int().min(1).max(1000)

export function registerRoutine(program: Command): void {
  const routine = program
    .command('routine')
    .description('routines: events (or you) start and steer sessions, with a key, debounce, caps and a gate')

  routine
    .command('add <file>')
    .description('adds a routine from its JSON file (- for standard input); see docs/routines.md')
    .option('--allow-pre-approval', 'let it start sessions whose tools run without asking')
    .option('--json', 'JSON, for scripts')
    .action(async (file: string, opts: { allowPreApproval?: boolean; json?: boolean }, command: Command) => {
      const input = readJson(file, 'routine')
      if (opts.allowPreApproval && input && typeof input === 'object' && !Array.isArray(input)) {
        const action = (input as { action?: unknown }).action
        if (action && typeof action === 'object') (action as Record<string, unknown>).allowPreApproval = true
      }
      const problems = routineProblems(input)
      if (problems.length) {
        for (const p of problems) process.stderr.write(`switchboard: ${file}: ${p}\n`)
        process.exitCode = 1
        return
      }
      const added = await hubApi(command).call('addRoutine', { body: input as never })
      if (opts.json) return printJson(added)
      process.stdout.write(`added ${describeRoutine(added)}\n`)
      for (const warning of added.warnings) process.stderr.write(`switchboard: warning: ${warning}\n`)
    })

  routine
    .command('list')
    .description('the routines: name, trigger, action, flow control')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { routines } = await hubApi(command).call('routines')
      if (opts.json) return printJson(routines)
      if (!routines.length) process.stdout.write('no routines\n')
      for (const r of routines) process.stdout.write(`${describeRoutine(r)}\n`)
    })

  routine
    .command('show <name>')
    .description('a routine as stored (JSON)')
    .action(async (name: string, _opts: unknown, command: Command) => {
      printJson(await hubApi(command).call('routine', { params: { name } }))
    })

  for (const [verb, route, says] of [
    ['pause', 'pauseRoutine', 'paused: its events wait until it is resumed'],
    ['resume', 'resumeRoutine', 'resumed'],
  ] as const)
    routine
      .command(`${verb} <name>`)
      .description(
        verb === 'pause' ? 'takes no events and starts no runs (events wait)' : 'goes on after a pause',
      )
      .action(async (name: string, _opts: unknown, command: Command) => {
        await hubApi(command).call(route, { params: { name } })
        process.stdout.write(`${name} ${says}\n`)
      })

  routine
    .command('remove <name>')
    .description('removes a routine, its runs and the events waiting for it')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('removeRoutine', { params: { name } })
      process.stdout.write(`removed ${name}\n`)
    })

  routine
    .command('runs <name>')
    .description(
      "a routine's runs, newest first: id, state, trigger, key, events, session, cost, turns, outcome",
    )
    .option('--limit <n>', 'at most this many (default 50)')
    .option('--json', 'JSON, for scripts')
    .action(async (name: string, opts: { limit?: string; json?: boolean }, command: Command) => {
      const limit = opts.limit === undefined ? undefined : check(limitSchema, opts.limit, '--limit')
      const { runs } = await hubApi(command).call('routineRuns', {
        params: { name },
        query: limit === undefined ? {} : { limit: String(limit) },
      })
      if (opts.json) return printJson(runs)
      if (!runs.length) process.stdout.write(`no runs of ${name}\n`)
      for (const r of runs) process.stdout.write(`${describeRun(r)}\n`)
    })

  routine
    .command('fire <name>')
    .description('fires a routine by hand (its filter is not asked), with --event <file> or an empty event')
    .option('--event <file>', 'the event, as JSON: topic, content, meta, … (- for standard input)')
    .option('--json', 'JSON, for scripts')
    .action(async (name: string, opts: { event?: string; json?: boolean }, command: Command) => {
      const run = await hubApi(command).call('fireRoutine', {
        params: { name },
        body: { event: eventFrom(opts.event) },
      })
      if (opts.json) return printJson(run)
      process.stdout.write(`${describeRun(run)}\n`)
    })

  routine
    .command('replay <name> <run>')
    .description('an ended run (a failed one, say) again: a new run with its events')
    .option('--json', 'JSON, for scripts')
    .action(async (name: string, run: string, opts: { json?: boolean }, command: Command) => {
      const replayed = await hubApi(command).call('replayRun', { params: { name, run } })
      if (opts.json) return printJson(replayed)
      process.stdout.write(`${describeRun(replayed)}\n`)
    })

  routine
    .command('test <name>')
    .description(
      'a dry run: would this event (or a webhook body, through its source’s preset) start a run or join one, and with what prompt',
    )
    .requiredOption('--event <file>', 'the event, as JSON: topic, content, meta, … (- for standard input)')
    .option(
      '--source <name>',
      'the file is a webhook body sent to this source: made into events by its preset (github …) as a delivery would be',
    )
    .option(
      '--header <header>',
      'with --source, a header the sender sends, "Name: value" (repeatable), e.g. "X-GitHub-Event: issues"',
      headerFrom,
      {},
    )
    .option('--json', 'JSON, for scripts')
    .action(
      async (
        name: string,
        opts: { event: string; source?: string; header: Record<string, string>; json?: boolean },
        command: Command,
      ) => {
        if (!opts.source && Object.keys(opts.header).length)
          throw invalid('--header goes with --source: the headers of a webhook body')
        const dry = await hubApi(command).call('testRoutine', {
          params: { name },
          body: opts.source
            ? { webhook: webhookFrom(opts.event, opts.source, opts.header) }
            : { event: eventFrom(opts.event) },
        })
        if (opts.json) return printJson(dry)
        // What the preset made of a body is worth seeing: the topic and content the filter was tried on.
        if (opts.source && dry.event)
          process.stdout.write(`event: ${dry.event.topic}: ${dry.event.content}\n`)
        if (!dry.matched) {
          process.stdout.write(`no run: ${dry.why}\n`)
          return
        }
        const where = dry.folder ? `start a session in ${dry.folder}` : `deliver to ${dry.deliverTo}`
        process.stdout.write(
          `${dry.joins ? `joins run ${dry.joins}` : 'a new run'} (key ${JSON.stringify(dry.key)}): would ${where}` +
            `${dry.gate ? ', once an operator approves' : ''}\n`,
        )
        if (dry.prompt) process.stdout.write(`prompt:\n${dry.prompt}\n`)
      },
    )
}
