// `switchboard mcp`: the claude_* tools over stdio, for another agent to drive sessions.
import type { Command } from 'commander'
import { createLogger } from '../core/log.js'
import { runMcpServer } from '../mcp/server.js'
import { configFrom } from './options.js'

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('an MCP stdio server with claude_* tools, so another agent can drive Claude Code sessions')
    .option(
      '--allow-bypass-permissions',
      'let the driving agent start sessions in bypassPermissions mode (dangerouslySkipPermissions)',
    )
    .action(async (opts: { allowBypassPermissions?: boolean }, command: Command) => {
      // stdout is the MCP protocol: logs go to stderr.
      await runMcpServer(configFrom(command), createLogger('mcp'), {
        allowBypassPermissions: opts.allowBypassPermissions === true,
      })
      process.exit(0)
    })
}
