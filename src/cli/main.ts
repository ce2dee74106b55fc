#!/usr/bin/env node
// The `switchboard` command: one file per command group, loaded only when one of its commands runs.
import type { Command } from 'commander'
import { VERSION } from '../core/version.js'

const args = process.argv.slice(2)
// The version needs nothing else, not even the parser: a script asking it pays node's start alone.
if (args.length === 1 && (args[0] === '-V' || args[0] === '--version')) {
  process.stdout.write(`${VERSION}\n`)
  process.exit(0)
}
const { Command: Program, CommanderError } = await import('commander')
const { DomainError } = await import('../core/errors.js')

type Register = (program: Command) => void

/**
 * Every top-level command, and the register function of the file that declares and runs it. A file's
 * imports are what its commands cost at start-up (`npm run bench:startup`), so only the named
 * command's file is loaded; help, and a name that is not here, load them all (in this order).
 */
const commands: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./serve.js')).registerServe,
  start: async () => (await import('./start.js')).registerStart,
  stop: async () => (await import('./stop.js')).registerStop,
  uninstall: async () => (await import('./uninstall.js')).registerUninstall,
  channel: async () => (await import('./channel.js')).registerChannel,
  mcp: async () => (await import('./mcp.js')).registerMcp,
  hook: async () => (await import('./hook.js')).registerHook,
  install: async () => (await import('./install.js')).registerInstall,
  peers: async () => (await import('./peers.js')).registerPeers,
  send: async () => (await import('./peers.js')).registerPeers,
  'dead-letters': async () => (await import('./peers.js')).registerPeers,
  events: async () => (await import('./events.js')).registerEvents,
  run: async () => (await import('./run.js')).registerRun,
  subscribe: async () => (await import('./subscribe.js')).registerSubscribe,
  routine: async () => (await import('./routine.js')).registerRoutine,
  deliveries: async () => (await import('./subscribe.js')).registerDeliveries,
  source: async () => (await import('./source.js')).registerSources,
  sender: async () => (await import('./access.js')).registerAccess,
  pair: async () => (await import('./access.js')).registerAccess,
  access: async () => (await import('./access.js')).registerAccess,
  status: async () => (await import('./status.js')).registerStatus,
  doctor: async () => (await import('./doctor.js')).registerDoctor,
  sessions: async () => (await import('./sessions.js')).registerSessions,
  completion: async () => (await import('./completion.js')).registerCompletion,
  ide: async () => (await import('./ide.js')).registerIde,
  bridge: async () => (await import('./bridge.js')).registerBridge,
  open: async () => (await import('./open.js')).registerOpen,
  answer: async () => (await import('./answer.js')).registerAnswer,
  decisions: async () => (await import('./decisions.js')).registerDecisions,
  notices: async () => (await import('./notices.js')).registerNotices,
  push: async () => (await import('./push.js')).registerPush,
  config: async () => (await import('./config.js')).registerConfig,
  usage: async () => (await import('./usage.js')).registerUsage,
  budget: async () => (await import('./usage.js')).registerUsage,
}

const program = new Program('switchboard')
  .description('Connects Claude Code sessions to webhooks, chat and the people who approve their tools.')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride()

// The settings every command takes (--home, --port, …), declared by the settings table.
const flags = await import('./flags.js')
flags.settingOptions(program)

/** The command the arguments name: the first word that is neither an option nor an option's value. */
function commandName(args: string[]): string | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required).flatMap((o) => [o.long, o.short]))
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return undefined
    if (takesValue.has(arg)) i++
    else if (!arg.startsWith('-')) return arg
  }
  return undefined
}

const name = commandName(args)
const named = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined
// Without a command, help (or "did you mean …?") lists them all; completion describes every command,
// so it loads them all too.
const loaders = named && name !== 'completion' ? [named] : Object.values(commands)
// A file that declares several commands is registered once.
for (const register of new Set(await Promise.all(loaders.map((load) => load())))) register(program)

// Output piped into something that stopped reading (`switchboard sessions | head -1`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0)
})

try {
  await program.parseAsync(process.argv)
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode)
  // Imported here: the API client is not something every command loads.
  const { HubApiError } = await import('../client/api-client.js')
  if (err instanceof DomainError || err instanceof HubApiError) {
    process.stderr.write(`switchboard: ${err.message}\n`)
    process.exit(2)
  }
  // Anything else (a file system or SQLite error, a bug) is still one line for a person; the stack
  // is there for whoever asks for it (--debug, SWITCHBOARD_DEBUG=1, "debug" in config.json).
  const e = err as NodeJS.ErrnoException
  process.stderr.write(`switchboard: ${e.message ?? String(err)}${e.code ? ` (${e.code})` : ''}\n`)
  const { resolveSettings } = await import('../core/settings/resolve.js')
  if (resolveSettings(flags.flagValues(program)).values.debug) process.stderr.write(`${e.stack}\n`)
  process.exit(1)
}
