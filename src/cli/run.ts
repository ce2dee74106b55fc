// `switchboard run "<prompt>"`: a terminal front end for a session the hub drives. It streams what
// Claude does, asks for permissions inline, and gives way when someone answers from elsewhere. The
// session's CLI ends with the command (the session stays, resumable), unless --keep.
import type { Command } from 'commander'
import * as z from 'zod'
import { agentChoiceSchema } from '../core/agent-options.js'
import { DRIVEN_AGENTS } from '../core/agents.js'
import { claudeOptionsSchema } from '../core/claude-options.js'
import { invalid } from '../core/errors.js'
import { PERMISSION_MODES } from '../core/permission-modes.js'
import { afterTurn, followTurn } from './follow.js'
import { hubApi } from './options.js'

const runOptions = z.object({
  agent: agentChoiceSchema.optional(),
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
  keep: z.boolean().optional(),
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
    .option('--agent <agent>', `the coding agent: ${DRIVEN_AGENTS.join(' | ')} (default: claude)`)
    .option('--cwd <dir>', 'working folder (default: here)')
    .option('--model <model>', 'model')
    .option('--permission-mode <mode>', PERMISSION_MODES.join(' | '))
    .option('--allowed-tools <list>', 'comma-separated tools allowed without asking')
    .option('--disallowed-tools <list>', 'comma-separated tools never allowed')
    .option('--max-turns <n>', 'most agentic turns')
    .option('--append-system-prompt <text>', 'added to the system prompt')
    .option('--resume <session-id>', 'continue a Claude Code session (see the hub’s session list)')
    .option('--fork', 'with --resume: continue under a new session id')
    .option('--keep', 'leave the session’s Claude Code running afterwards, for its next message')
    .action(async (prompt: string, raw: Record<string, unknown>, command: Command) => {
      const parsed = runOptions.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw invalid(
          `--${String(issue?.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue?.message}`,
        )
      }
      const o = parsed.data
      const hub = hubApi(command, 'run')
      const view = await hub.call('createSession', {
        body: {
          prompt,
          ...(o.agent ? { agent: o.agent } : {}),
          options: {
            cwd: o.cwd ?? process.cwd(),
            model: o.model,
            permissionMode: o.permissionMode,
            allowedTools: list(o.allowedTools),
            disallowedTools: list(o.disallowedTools),
            maxTurns: o.maxTurns,
            appendSystemPrompt: o.appendSystemPrompt,
            resume: o.resume,
            forkSession: o.fork,
          },
        },
      })
      const end = afterTurn(hub, view.id, o.keep === true)
      process.stdout.write(`session ${view.id}\n`)
      process.exitCode = await followTurn(hub, view.id, 0, () => end('interrupted'))
      await end('done')
    })
}
