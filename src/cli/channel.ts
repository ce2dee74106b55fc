// `switchboard channel`: its flags, then the channel. What this file imports is what every Claude Code
// session waits for at start (bench/startup): flags.js and not options.js (the store), no pino.
import { setFlagsFromString } from 'node:v8'
import type { Command } from 'commander'
import { runChannel } from '../channel/index.js'
import { topicSchema } from '../core/hub-protocol.js'
import { channelLogger } from './channel-log.js'
import { check, configFrom, settingOptions } from './flags.js'

export function registerChannel(program: Command): void {
  settingOptions(
    program
      .command('channel')
      .description(
        'the MCP server Claude Code spawns: pushes events into the session, relays replies and prompts',
      ),
  )
    .option('--topics <list>', 'comma-separated topics to receive (default: all)')
    .action(async (opts: { topics?: string }, command: Command) => {
      // A channel sits beside its session all day and holds little (its modules, the last events),
      // and V8, tuned for speed, lets the old generation fill with garbage for tens of minutes before
      // it collects: over an hour of steady events a channel's private memory grew by half while its
      // live heap stayed at 9 MB (docs/design-notes.md, "Load and soak"). Told to favour size, V8
      // grows the heap in smaller steps and compacts fragmented pages. Set here, at run time: a
      // channel runs however the user's agent configuration starts it, with no say over node's flags.
      setFlagsFromString('--optimize-for-size')
      const topics = opts.topics
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .map((t) => check(topicSchema, t, '--topics'))
      // --name and --aliases are settings: a plugin's .mcp.json cannot take per-project flags, a variable can.
      const config = configFrom(command)
      const options = { name: config.channelName ?? undefined, topics, aliases: config.channelAliases }
      // stdout is the MCP protocol: logs go to stderr, which Claude Code keeps in its debug log.
      await runChannel(config, options, await channelLogger(config))
      process.exit(0)
    })
}
