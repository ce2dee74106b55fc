// `switchboard mcp`: the claude_* tools over stdio, for another agent to drive Claude Code sessions.
import { type Command, Option } from 'commander'
import { createLogger } from '../core/log.js'
import { runMcpServer } from '../mcp/server.js'
import { configFrom } from './options.js'

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('an MCP stdio server with claude_* tools, so another agent can drive Claude Code sessions')
    .option(
      '--allow-pre-approval',
      'let the driving agent start sessions whose tools run without asking (permission modes acceptEdits, auto, bypassPermissions; allowedTools; dangerouslySkipPermissions)',
    )
    // The flag's first name, from when bypassPermissions was the only way; kept for configs that use it.
    .addOption(new Option('--allow-bypass-permissions').hideHelp())
    .action(
      async (opts: { allowPreApproval?: boolean; allowBypassPermissions?: boolean }, command: Command) => {
        // stdout is the MCP protocol: logs go to stderr.
        const config = configFrom(command)
        await runMcpServer(config, createLogger('mcp', config), {
          allowPreApproval: opts.allowPreApproval === true || opts.allowBypassPermissions === true,
        })
        process.exit(0)
      },
    )
}
