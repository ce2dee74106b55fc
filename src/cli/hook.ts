// Claude Code's hooks from the terminal side: `switchboard install claude --hooks` writes Switchboard's
// HTTP hooks into Claude Code's settings (or takes them out); `switchboard hook <Event>` is the same
// hook as a command, for a Claude Code without HTTP hooks: it posts its stdin to the hub's hook route
// and prints the answer. `switchboard hook` without an event is the older hook rung (settings written
// before the HTTP hooks): it prints the session's pending events as additional context.

import type { Command } from 'commander'
import { z } from 'zod'
import { channelMessage } from '../claude/channel-tag.js'
import { CLAUDE_HOOK_EVENTS, HOOK_HEADERS, hookInputSchema, isClaudeHookEvent } from '../core/claude-hooks.js'
import { dialHost, type HubConfig } from '../core/config.js'
import { isHubDriven } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { readHookToken } from '../core/hook-token.js'
import { isLoopback } from '../core/network.js'
import { defaultSubscriberName } from '../core/subscriber-name.js'
import { addHooks, removeHooks, settingsFile } from './claude-settings.js'
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

/** Where Claude Code's HTTP hooks reach this home's hub (beyond loopback it speaks TLS). */
export function hookHubUrl(config: Pick<HubConfig, 'host' | 'port' | 'tls' | 'insecure'>): string {
  const host = dialHost(config.host)
  const tls = config.tls !== null || (!isLoopback(host) && !config.insecure)
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}

export function registerHook(program: Command): void {
  settingOptions(program.command('hook [event]'))
    .description(
      'for Claude Code hooks: with an event, asks the hub and prints its answer; without, the pending events',
    )
    .action(async (event: string | undefined, _opts: unknown, command: Command) => {
      // The hub hands its own sessions their events and hears their dialogs itself.
      if (isHubDriven()) return
      // A hook must never break the session: any problem is said on stderr, and the hook exits 0,
      // which leaves the dialog to the terminal.
      try {
        if (event === undefined) return await pendingEvents(command)
        if (!isClaudeHookEvent(event))
          throw invalid(`"${event}" is not one of ${CLAUDE_HOOK_EVENTS.join(', ')}`)
        const input = hookInputSchema.parse(JSON.parse(await readStdin()))
        const name = configFrom(command).channelName
        // A session's start starts the hub when none runs; any later hook leaves that to it.
        const output = await hubApi(command, 'hook', event === 'SessionStart').call('claudeHook', {
          params: { event },
          body: input,
          headers: name ? { [HOOK_HEADERS.name]: name } : {},
        })
        process.stdout.write(`${JSON.stringify(output)}\n`)
      } catch (err) {
        process.stderr.write(`switchboard hook: ${(err as Error).message}\n`)
      }
    })

  program
    .command('install')
    .description('set Switchboard up in a client')
    .command('claude')
    .description('write Switchboard’s hooks into Claude Code settings (or take them out)')
    .option('--hooks', 'the hooks that bring every session’s dialogs, waits and messages to the hub')
    .option('--remove', 'take Switchboard’s hook entries out again, leaving every other hook')
    .option('--project <dir>', 'into <dir>/.claude/settings.json instead of ~/.claude/settings.json')
    .option('--command', 'command hooks (`switchboard hook <Event>`), for a Claude Code without HTTP hooks')
    .action(
      async (
        opts: { hooks?: boolean; remove?: boolean; project?: string; command?: boolean },
        command: Command,
      ) => {
        if (!opts.hooks) throw invalid('say what to install: --hooks')
        const file = settingsFile(opts.project)
        if (opts.remove) {
          const removed = removeHooks(file)
          process.stdout.write(
            removed ? `Switchboard's hooks are out of ${file}\n` : `no Switchboard hooks in ${file}\n`,
          )
          return
        }
        const config = configFrom(command)
        const hubUrl = opts.command ? null : hookHubUrl(config)
        addHooks(file, { hubUrl, token: readHookToken(config.home), waitSeconds: config.hookWaitSeconds })
        process.stdout.write(
          `hooks for ${CLAUDE_HOOK_EVENTS.join(', ')} are in ${file}${hubUrl ? `, to ${hubUrl}` : ''}\n`,
        )
      },
    )
}

/** The older hook rung: the session's pending events, as additional context. */
async function pendingEvents(command: Command): Promise<void> {
  const input = oldHookInputSchema.parse(JSON.parse(await readStdin()))
  const subscriber = configFrom(command).channelName ?? defaultSubscriberName(input.cwd ?? process.cwd())
  const { events } = await hubApi(command, 'hook').call('hookTake', { body: { subscriber } })
  if (events.length === 0) return
  const additionalContext = [
    `Switchboard delivered ${events.length} event${events.length === 1 ? '' : 's'} while you worked.`,
    channelMessage(events),
  ].join('\n')
  process.stdout.write(
    `${JSON.stringify({ hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext } })}\n`,
  )
}
