// Claude Code's hooks from the terminal side: `switchboard install claude --hooks` writes Switchboard's
// hooks into Claude Code's settings (or takes them out): curl posting each hook's input down the hub's
// socket, or `switchboard hook <Event>`, which posts its stdin to the hub's hook route as the CLI
// reaches the hub (the socket, or a hub that proved itself) and prints the answer. `switchboard hook` without an event is the older hook rung (settings written
// before the HTTP hooks): it prints the session's pending events as additional context.

import { rmSync } from 'node:fs'
import type { Command } from 'commander'
import * as z from 'zod'
import { channelMessage } from '../claude/channel-tag.js'
import { localSocket } from '../client/hub-address.js'
import { AGENTS, agentSchema } from '../core/agents.js'
import { CLAUDE_HOOK_EVENTS, HOOK_HEADERS, hookInputSchema, isClaudeHookEvent } from '../core/claude-hooks.js'
import { type HubConfig, paths } from '../core/config.js'
import { isHubDriven } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { GEMINI_ASK, GEMINI_HOOK_EVENT } from '../core/gemini-hooks.js'
import { onPath } from '../core/on-path.js'
import { defaultSubscriberName } from '../core/subscriber-name.js'
import {
  addHooks,
  type HookTarget,
  removeHooks,
  settingsFile,
  sharedProjectSettings,
} from './claude-settings.js'
import { forgetHookInstall, recordHookInstall } from './hook-installs.js'
import { configFrom, hubApi, settingOptions } from './options.js'

/** What the older hook reads of its stdin. */
const oldHookInputSchema = z
  .object({ hook_event_name: z.string().min(1), cwd: z.string().optional() })
  .passthrough()

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function registerHook(program: Command): void {
  settingOptions(program.command('hook [event]'))
    .description(
      'for Claude Code hooks: with an event, asks the hub and prints its answer; without, the pending events',
    )
    .option(
      '--agent <agent>',
      `whose hook this is: ${AGENTS.join(', ')} (Codex's PermissionRequest speaks Claude Code's; Gemini CLI's is ${GEMINI_HOOK_EVENT})`,
    )
    .action(async (event: string | undefined, opts: { agent?: string }, command: Command) => {
      // Gemini CLI runs the tool when its hook says nothing (under yolo, unasked): every answer
      // that is not a person's is `ask`, which puts Gemini's own dialog up.
      const gemini = opts.agent === 'gemini'
      const none = () => {
        if (gemini) process.stdout.write(`${JSON.stringify(GEMINI_ASK)}\n`)
      }
      // The hub hands its own sessions their events and hears their dialogs itself.
      if (isHubDriven()) return none()
      // A hook must never break the session: any problem is said on stderr, and the hook exits 0,
      // which leaves the dialog to the terminal.
      try {
        if (event === undefined) return await pendingEvents(command)
        const agent = agentSchema.parse(opts.agent ?? 'claude')
        if (gemini ? event !== GEMINI_HOOK_EVENT : !isClaudeHookEvent(event))
          throw invalid(
            `"${event}" is not one of ${gemini ? GEMINI_HOOK_EVENT : CLAUDE_HOOK_EVENTS.join(', ')}`,
          )
        const input = hookInputSchema.parse(JSON.parse(await readStdin()))
        const name = configFrom(command).channelName
        // A session's start starts the hub when none runs; any later hook leaves that to it.
        const output = await hubApi(command, 'hook', event === 'SessionStart').call('claudeHook', {
          params: { event },
          body: input,
          headers: {
            ...(name ? { [HOOK_HEADERS.name]: name } : {}),
            ...(agent === 'claude' ? {} : { [HOOK_HEADERS.agent]: agent }),
          },
        })
        process.stdout.write(`${JSON.stringify(output)}\n`)
      } catch (err) {
        process.stderr.write(`switchboard hook: ${(err as Error).message}\n`)
        none()
      }
    })
}

/** `switchboard install claude`: Switchboard's hooks in Claude Code's settings. */
export function registerClaudeInstall(install: Command): void {
  install
    .command('claude')
    .description('write Switchboard’s hooks into Claude Code settings (or take them out)')
    .option('--hooks', 'the hooks that bring every session’s dialogs, waits and messages to the hub')
    .option('--remove', 'take Switchboard’s hook entries out again, leaving every other hook')
    .option('--project <dir>', 'into <dir>/.claude/settings.local.json instead of ~/.claude/settings.json')
    .option('--command', '`switchboard hook <Event>` for every event, instead of curl down the hub’s socket')
    .action(
      async (
        opts: { hooks?: boolean; remove?: boolean; project?: string; command?: boolean },
        command: Command,
      ) => {
        if (!opts.hooks) throw invalid('say what to install: --hooks')
        const config = configFrom(command)
        const file = settingsFile(opts.project)
        // An earlier install put a project's hooks in its shared settings.json: they go wherever asked.
        const shared = opts.project ? sharedProjectSettings(opts.project) : null
        if (opts.remove) {
          const removed = removeHooks(file) + (shared ? removeHooks(shared) : 0)
          forgetHookInstall(config.home, 'claude', file)
          process.stdout.write(
            removed ? `Switchboard's hooks are out of ${file}\n` : `no Switchboard hooks in ${file}\n`,
          )
          return
        }
        const { target, how } = hookTarget(config, opts.command === true)
        addHooks(file, target)
        recordHookInstall(config.home, 'claude', file)
        if (shared && removeHooks(shared))
          process.stdout.write(`taken out of ${shared}, which git shares: they live in ${file} now\n`)
        // Nothing reads it any more; a copy left in an old settings file opens nothing.
        rmSync(paths.formerHookToken(config.home), { force: true })
        process.stdout.write(`hooks for ${CLAUDE_HOOK_EVENTS.join(', ')} are in ${file}, ${how}\n`)
      },
    )
}

/**
 * How the installed hooks reach this home's hub: curl down its socket, which only the home's owner
 * can listen on, when there is a curl and the socket's path fits; else the CLI, which finds the hub
 * as every command does (and costs a Node start per hook).
 */
export function hookTarget(config: HubConfig, commandAsked: boolean): { target: HookTarget; how: string } {
  const waitSeconds = config.hookWaitSeconds
  if (commandAsked) return { target: { via: 'command', waitSeconds }, how: 'as `switchboard hook <Event>`' }
  const socketPath = localSocket(config)
  const curl = onPath('curl')
  if (socketPath && curl)
    return {
      target: { via: 'socket', curl, socketPath, waitSeconds },
      how: `to the hub's socket ${socketPath}`,
    }
  const why = socketPath ? 'no curl on PATH' : `the socket's path in ${config.home} is too long`
  return {
    target: { via: 'command', waitSeconds },
    how: `as \`switchboard hook <Event>\` (${why}: each hook starts Node, about 0.1 s)`,
  }
}

/** The older hook rung: the session's pending events, as additional context. */
async function pendingEvents(command: Command): Promise<void> {
  const input = oldHookInputSchema.parse(JSON.parse(await readStdin()))
  const subscriber = configFrom(command).channelName ?? defaultSubscriberName(input.cwd ?? process.cwd())
  const { events } = await hubApi(command, 'hook').call('hookTake', {
    body: { subscriber, ...(input.cwd ? { folder: input.cwd } : {}) },
  })
  if (events.length === 0) return
  const additionalContext = [
    `Switchboard delivered ${events.length} event${events.length === 1 ? '' : 's'} while you worked.`,
    channelMessage(events),
  ].join('\n')
  process.stdout.write(
    `${JSON.stringify({ hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext } })}\n`,
  )
}
