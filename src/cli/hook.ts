// Rung 3: `switchboard hook` runs as a Claude Code hook (UserPromptSubmit, PostToolUse) and hands the
// session its pending events as additional context; `switchboard install claude --hooks` sets it up.

import type { Command } from 'commander'
import { z } from 'zod'
import { channelMessage } from '../claude/channel-tag.js'
import { isHubDriven } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { defaultSubscriberName } from '../core/subscriber-name.js'
import { addHooks, HOOK_EVENTS, removeHooks, settingsFile } from './claude-settings.js'
import { configFrom, hubApi, settingOptions } from './options.js'

/** What Claude Code writes to a hook's stdin; only these fields matter here. */
const hookInputSchema = z
  .object({ hook_event_name: z.string().min(1), cwd: z.string().optional() })
  .passthrough()

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function registerHook(program: Command): void {
  settingOptions(program.command('hook'))
    .description('for Claude Code hooks: prints the session’s pending events as additional context')
    .action(async (_opts: unknown, command: Command) => {
      // The hub hands its own sessions their events; taking some here would steal another session's.
      if (isHubDriven()) return
      // A hook must never break the session: any problem is said on stderr, and the hook exits 0.
      try {
        const input = hookInputSchema.parse(JSON.parse(await readStdin()))
        const subscriber =
          configFrom(command).channelName ?? defaultSubscriberName(input.cwd ?? process.cwd())
        const hub = hubApi(command, 'hook')
        const { events } = await hub.call('hookTake', { body: { subscriber } })
        if (events.length === 0) return
        const additionalContext = [
          `Switchboard delivered ${events.length} event${events.length === 1 ? '' : 's'} while you worked.`,
          channelMessage(events),
        ].join('\n')
        process.stdout.write(
          `${JSON.stringify({ hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext } })}\n`,
        )
      } catch (err) {
        process.stderr.write(`switchboard hook: ${(err as Error).message}\n`)
      }
    })

  program
    .command('install')
    .description('set Switchboard up in a client')
    .command('claude')
    .description('write Switchboard’s hook entries into Claude Code settings (or take them out)')
    .option('--hooks', 'the UserPromptSubmit and PostToolUse hooks that hand over pending events')
    .option('--remove', 'take Switchboard’s hook entries out again, leaving every other hook')
    .option('--project <dir>', 'into <dir>/.claude/settings.json instead of ~/.claude/settings.json')
    .action(async (opts: { hooks?: boolean; remove?: boolean; project?: string }) => {
      if (!opts.hooks) throw invalid('say what to install: --hooks')
      const file = settingsFile(opts.project)
      if (opts.remove) {
        const removed = removeHooks(file)
        process.stdout.write(
          removed ? `Switchboard's hooks are out of ${file}\n` : `no Switchboard hooks in ${file}\n`,
        )
        return
      }
      addHooks(file)
      process.stdout.write(`hooks for ${HOOK_EVENTS.join(' and ')} are in ${file}\n`)
    })
}
