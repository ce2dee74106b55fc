// `switchboard sessions`: the sessions the hub drives (and the ones it can resume from Claude Code's
// files): list, show, send, stop, resume, bind to an IDE, prune.
import type { Command } from 'commander'
import { AGENT_LABELS } from '../core/agents.js'
import type { TerminalSessionRow } from '../core/api/rows.js'
import { invalid } from '../core/errors.js'
import { formatUsd } from '../core/money.js'
import type { ListedSession, SessionView } from '../core/session-api.js'
import { afterTurn, followTurn, lastSeq } from './follow.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'

type JsonFlag = { json?: boolean }

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16)

/** A session's line: its agent beside its folder, so a Codex session is not taken for Claude Code's. */
function listLine(s: ListedSession): string {
  const summary = (s.summary ?? '').replace(/\s+/g, ' ').slice(0, 60)
  return [s.id, s.status, when(s.lastActivity), s.cwd ?? '-', AGENT_LABELS[s.agent], summary].join('\t')
}

/** The columns terminalLine writes, for the line above them. */
const TERMINAL_HEADER = [
  'SESSION',
  'STATUS',
  'NAME',
  'BRANCH',
  'MODEL',
  'CHANNEL',
  'LAST SEEN',
  'FOLDER',
].join('\t')

/** A session at a terminal, as its hooks told the hub. */
function terminalLine(s: TerminalSessionRow): string {
  return [
    s.sessionId,
    s.status,
    s.name,
    s.branch ?? '-',
    s.model ?? '-',
    s.channel ? 'channel' : '-',
    when(s.lastSeenAt),
    s.folder,
  ].join('\t')
}

function describe(v: SessionView): string {
  const agent = AGENT_LABELS[v.agent]
  const lines = [
    `${v.id}: ${v.status}${v.live ? ' (CLI running)' : ''}`,
    `  agent: ${agent}`,
    `  folder: ${v.cwd}`,
    `  ${agent} session: ${v.claudeSessionId ?? 'not started'}`,
    `  turns ${v.turns}, cost ${formatUsd(v.costUsd)}, updated ${when(v.updatedAt)}`,
  ]
  if (v.reason) lines.push(`  why: ${v.reason}`)
  if (v.ide) lines.push(`  IDE: ${v.ide.name} (port ${v.ide.port})`)
  if (v.lastResult) lines.push(`  last result: ${v.lastResult.replace(/\s+/g, ' ').slice(0, 200)}`)
  for (const p of v.pendingInputs)
    lines.push(`  waiting for an answer: ${p.kind} ${p.tool_name} (code ${p.code})`)
  return `${lines.join('\n')}\n`
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command('sessions')
    .description('the sessions the hub drives: list (the default), show, send, stop, resume, prune')
  sessions
    .command('list', { isDefault: true })
    .description('the hub’s sessions, and those in Claude Code’s files it can resume')
    .option('--cwd <dir>', 'only sessions of this folder')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: JsonFlag & { cwd?: string }, command: Command) => {
      const api = hubApi(command)
      const { sessions: list } = await api.call('history', { query: { cwd: opts.cwd } })
      if (opts.json) return printJson(list)
      if (list.length === 0) process.stdout.write('no sessions\n')
      for (const s of list) process.stdout.write(`${listLine(s)}\n`)
      const running = (await api.call('terminalSessions')).sessions.filter(
        (s) => s.status === 'running' && (!opts.cwd || s.folder === opts.cwd),
      )
      if (running.length)
        process.stdout.write(`at terminals (switchboard sessions terminals):\n${TERMINAL_HEADER}\n`)
      for (const s of running) process.stdout.write(`${terminalLine(s)}\n`)
    })

  sessions
    .command('terminals')
    .description('Claude Code sessions at terminals, as their hooks told the hub (install claude --hooks)')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: JsonFlag, command: Command) => {
      const { sessions: list } = await hubApi(command).call('terminalSessions')
      if (opts.json) return printJson(list)
      if (list.length === 0) process.stdout.write('no terminal sessions have been heard of\n')
      else process.stdout.write(`${TERMINAL_HEADER}\n`)
      for (const s of list) process.stdout.write(`${terminalLine(s)}\n`)
    })

  const one = (
    name: string,
    description: string,
    work: (api: ReturnType<typeof hubApi>, id: string) => Promise<SessionView>,
  ) =>
    sessions
      .command(`${name} <session>`)
      .description(description)
      .option('--json', 'JSON, for scripts')
      .action(async (id: string, opts: JsonFlag, command: Command) => {
        const view = await work(hubApi(command), id)
        if (opts.json) printJson(view)
        else process.stdout.write(describe(view))
      })

  one('show', 'status, cost, turns, why it stopped, what it waits for', (api, id) =>
    api.call('session', { params: { id } }),
  )
  sessions
    .command('send <session> <text>')
    .description(
      'the session’s next message (a stopped one is resumed), its turn followed here as run follows one',
    )
    .option('--keep', 'leave the session’s Claude Code running afterwards, for its next message')
    .action(async (id: string, text: string, opts: { keep?: boolean }, command: Command) => {
      const hub = hubApi(command)
      const after = await lastSeq(hub, id)
      const view = await hub.call('sendMessage', { params: { id }, body: { text } })
      const end = afterTurn(hub, view.id, opts.keep === true)
      process.exitCode = await followTurn(hub, view.id, after, () => end('interrupted'))
      await end('done')
    })

  one('stop', 'end the session’s CLI; the session stays, and its next message resumes it', (api, id) =>
    api.call('stopSession', { params: { id } }),
  )
  one('resume', 'start a stopped session’s CLI again, to wait for its next message', (api, id) =>
    api.call('resumeSession', { params: { id } }),
  )

  sessions
    .command('ide <session> [ide]')
    .description('bind the session’s CLI to a live IDE (its port or name, see: switchboard ide list)')
    .option('--unbind', 'take the IDE away again')
    .option('--json', 'JSON, for scripts')
    .action(
      async (
        id: string,
        ide: string | undefined,
        opts: JsonFlag & { unbind?: boolean },
        command: Command,
      ) => {
        if (!ide && !opts.unbind) throw invalid('name the IDE (its port or name), or say --unbind')
        const api = hubApi(command)
        const view = opts.unbind
          ? await api.call('unbindIde', { params: { id } })
          : await api.call('bindIde', { params: { id }, body: { ide: ide as string } })
        if (opts.json) return printJson(view)
        process.stdout.write(
          view.ide
            ? `${view.id} uses ${view.ide.name} (port ${view.ide.port})\n`
            : `${view.id} uses no IDE\n`,
        )
      },
    )

  sessions
    .command('prune [session]')
    .description('forget sessions whose CLI is not running (all, or the one named), with their stored lines')
    .option('--json', 'JSON, for scripts')
    .action(async (id: string | undefined, opts: JsonFlag, command: Command) => {
      const api = hubApi(command)
      const { removed } = id
        ? await api.call('removeSession', { params: { id } })
        : await api.call('pruneSessions')
      if (opts.json) return printJson({ removed })
      process.stdout.write(removed.length ? `removed ${removed.join(', ')}\n` : 'nothing to remove\n')
    })
}
