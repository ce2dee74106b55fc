// `switchboard channel`: its flags, then the channel. What this file imports is what every Claude Code
// session waits for at start (bench/startup): flags.js and not options.js (the store), no pino.
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
