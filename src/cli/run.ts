// `switchboard run "<prompt>"`: a terminal front end for a session the hub drives. It streams what
// Claude does, asks for permissions inline, and gives way when someone answers from elsewhere.
import { createInterface, type Interface } from 'node:readline'
import type { Command } from 'commander'
import { z } from 'zod'
import { claudeOptionsSchema } from '../claude/process.js'
import type { HubApi } from '../client/api-client.js'
import { UserError } from '../core/errors.js'
import type { PendingInput, SessionView } from '../core/session-api.js'
import { hubApi } from './options.js'

const runOptions = z.object({
  cwd: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  permissionMode: claudeOptionsSchema.shape.permissionMode,
  allowedTools: z.string().optional(),
  disallowedTools: z.string().optional(),
  maxTurns: z.coerce
    .number()
    .int()
    .positive({ error: '--max-turns must be a positive whole number' })
    .optional(),
  appendSystemPrompt: z.string().optional(),
  resume: z.string().min(1).optional(),
  fork: z.boolean().optional(),
})

const list = (v?: string) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export function registerRun(program: Command): void {
  program
    .command('run <prompt>')
    .description(
      'start a session and follow it here; answer its permission prompts inline or from anywhere else',
    )
    .option('--cwd <dir>', 'working folder (default: here)')
    .option('--model <model>', 'model')
    .option('--permission-mode <mode>', 'default | acceptEdits | plan | bypassPermissions | dontAsk | auto')
    .option('--allowed-tools <list>', 'comma-separated tools allowed without asking')
    .option('--disallowed-tools <list>', 'comma-separated tools never allowed')
    .option('--max-turns <n>', 'most agentic turns')
    .option('--append-system-prompt <text>', 'added to the system prompt')
    .option('--resume <session-id>', 'continue a Claude Code session (see the hub’s session list)')
    .option('--fork', 'with --resume: continue under a new session id')
    .action(async (prompt: string, raw: Record<string, unknown>, command: Command) => {
      const parsed = runOptions.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new UserError(
          `--${String(issue?.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue?.message}`,
        )
      }
      const o = parsed.data
      const hub = hubApi(command, 'run')
      const view = await hub.create(prompt, {
        cwd: o.cwd ?? process.cwd(),
        model: o.model,
        permissionMode: o.permissionMode,
        allowedTools: list(o.allowedTools),
        disallowedTools: list(o.disallowedTools),
        maxTurns: o.maxTurns,
        appendSystemPrompt: o.appendSystemPrompt,
        resume: o.resume,
        forkSession: o.fork,
      })
      process.exitCode = await follow(hub, view.id)
    })
}

/** Prints the session's lines and handles its prompts until the turn ends; returns the exit code. */
async function follow(hub: HubApi, id: string): Promise<number> {
  const out = (text: string) => process.stdout.write(`${text}\n`)
  out(`session ${id}`)
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY })
  rl.on('close', () => closedInputs.add(rl))
  // Ctrl-C ends Claude's turn, not the session: it stays in the hub for its next message.
  const onInterrupt = () => {
    void hub
      .interrupt(id)
      .catch(() => {})
      .finally(() => {
        process.stderr.write(
          `\nswitchboard: interrupted; session ${id} stays in the hub: switchboard sessions show ${id} (resume it by sending it a message, or: switchboard sessions stop ${id})\n`,
        )
        process.exit(130)
      })
  }
  rl.on('SIGINT', onInterrupt)
  process.once('SIGINT', onInterrupt)
  let printed = 0
  try {
    for (;;) {
      const view = await hub.status(id, 2)
      printed = await printLines(hub, id, printed, out)
      if (view.pendingInputs.length) {
        await answerInline(hub, id, view.pendingInputs[0] as PendingInput, rl, out)
        continue
      }
      if (view.status === 'running' || view.status === 'waiting_for_input') continue
      printed = await printLines(hub, id, printed, out)
      out(`— ${view.status}${view.lastResult ? '' : ' (no result)'}`)
      if (view.status === 'idle') return 0
      process.stderr.write(
        `switchboard: session ${id} ${view.status}${view.reason ? `: ${view.reason}` : ''}\n`,
      )
      return 1
    }
  } finally {
    process.off('SIGINT', onInterrupt)
    rl.close()
  }
}

async function printLines(hub: HubApi, id: string, after: number, out: (t: string) => void): Promise<number> {
  let last = after
  for (let page = await hub.lines(id, after); ; page = await hub.lines(id, last)) {
    for (const { line } of page.lines) printLine(line, out)
    last = page.lines.at(-1)?.seq ?? last
    if (page.next === null || page.lines.length === 0) return last
  }
}

function printLine(line: Record<string, unknown>, out: (t: string) => void): void {
  const content = (line.message as { content?: unknown } | undefined)?.content
  if (line.type === 'assistant' && Array.isArray(content)) {
    for (const block of content as Record<string, unknown>[]) {
      if (block.type === 'text') out(String(block.text))
      if (block.type === 'tool_use') out(`● ${block.name} ${JSON.stringify(block.input)}`)
    }
  }
  if (line.type === 'result')
    out(`(${line.subtype}, ${line.num_turns ?? 0} turns, $${line.total_cost_usd ?? 0})`)
}

const closedInputs = new WeakSet<Interface>()
function inputClosed(rl: Interface): boolean {
  return closedInputs.has(rl)
}

/** Asks here; if the decision is answered elsewhere first, the question is withdrawn. */
async function answerInline(
  hub: HubApi,
  id: string,
  p: PendingInput,
  rl: Interface,
  out: (t: string) => void,
): Promise<void> {
  const what = p.kind === 'plan' ? 'Approve the plan?' : `Allow ${p.tool_name} ${JSON.stringify(p.input)}?`
  const controller = new AbortController()
  const ask = `${what} [y/n] (or answer "${p.code}" from anywhere) `
  // With no terminal input left (stdin closed), the answer can only come from elsewhere.
  let typed: Promise<string | null>
  if (inputClosed(rl)) {
    out(ask)
    typed = new Promise<null>(() => {})
  } else {
    typed = new Promise<string | null>((resolve) => {
      rl.question(ask, { signal: controller.signal }, resolve)
      controller.signal.addEventListener('abort', () => resolve(null))
      rl.once('close', () => resolve(null))
    })
  }
  const elsewhere = (async () => {
    while (!controller.signal.aborted) {
      const view: SessionView = await hub.status(id, 1)
      if (!view.pendingInputs.some((q) => q.decision === p.decision)) return 'elsewhere'
      await new Promise((r) => setTimeout(r, 250))
    }
    return null
  })()
  const first = await Promise.race([typed, elsewhere])
  controller.abort()
  if (first === 'elsewhere' || first === null) {
    if (first === 'elsewhere') out(`\n(answered elsewhere)`)
    return
  }
  const yes = /^\s*y(es)?\s*$/i.test(first)
  await hub
    .respond(
      id,
      p.decision,
      yes ? { behavior: 'allow' } : { behavior: 'deny', message: 'Denied at the terminal' },
    )
    .catch((err: Error) => out(`(${err.message})`))
}
