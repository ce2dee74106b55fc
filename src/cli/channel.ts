// `switchboard channel`: its flags, then the channel. What this file imports is what every Claude Code
// session waits for at start (bench/startup): flags.js and not options.js (the store), no pino.
import type { Command } from 'commander'
import { runChannel } from '../channel/index.js'
import { subscriberNameSchema, topicSchema } from '../core/hub-protocol.js'
import { channelLogger } from './channel-log.js'
import { check, configFrom } from './flags.js'

export function registerChannel(program: Command): void {
  program
    .command('channel')
    .description(
      'the MCP server Claude Code spawns: pushes events into the session, relays replies and prompts',
    )
    .option('--name <name>', 'subscriber name (default: the working folder name)')
    .option('--topics <list>', 'comma-separated topics to receive (default: all)')
    .option('--aliases <list>', 'other names peers may send to (or SWITCHBOARD_CHANNEL_ALIASES)')
    .action(async (opts: { name?: string; topics?: string; aliases?: string }, command: Command) => {
      // A plugin's .mcp.json cannot take per-project flags: SWITCHBOARD_CHANNEL_NAME can be set instead.
      const rawName = opts.name ?? process.env.SWITCHBOARD_CHANNEL_NAME
      const name = rawName === undefined ? undefined : check(subscriberNameSchema, rawName, '--name')
      const topics = opts.topics
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .map((t) => check(topicSchema, t, '--topics'))
      const aliases = (opts.aliases ?? process.env.SWITCHBOARD_CHANNEL_ALIASES)
        ?.split(',')
        .map((a) => a.trim())
        .filter(Boolean)
        .map((a) => check(subscriberNameSchema, a, '--aliases'))
      const config = configFrom(command)
      // stdout is the MCP protocol: logs go to stderr, which Claude Code keeps in its debug log.
      await runChannel(config, { name, topics, aliases }, await channelLogger())
      process.exit(0)
    })
}
