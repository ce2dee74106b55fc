#!/usr/bin/env node
// The `switchboard` command: one sub-command per file, wired here.
import { Command, CommanderError } from 'commander'
import { HubApiError } from '../client/api-client.js'
import { UserError } from '../core/errors.js'
import { VERSION } from '../core/version.js'
import { registerAccess } from './access.js'
import { registerChannel } from './channel.js'
import { registerHook } from './hook.js'
import { registerMcp } from './mcp.js'
import { registerPeers } from './peers.js'
import { registerRun } from './run.js'
import { registerServe } from './serve.js'
import { registerSources } from './source.js'
import { registerDeliveries, registerSubscribe } from './subscribe.js'

const program = new Command('switchboard')
  .description('Connects Claude Code sessions to webhooks, chat and the people who approve their tools.')
  .version(VERSION)
  .option('--home <dir>', 'state folder (default: $SWITCHBOARD_HOME or ~/.switchboard)')
  .option('--port <port>', 'hub port (default: $SWITCHBOARD_PORT or 7420)')
  .showHelpAfterError()
  .exitOverride()

registerServe(program)
registerChannel(program)
registerMcp(program)
registerHook(program)
registerPeers(program)
registerRun(program)
registerSubscribe(program)
registerDeliveries(program)
registerSources(program)
registerAccess(program)

try {
  await program.parseAsync(process.argv)
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode)
  if (err instanceof UserError || err instanceof HubApiError) {
    process.stderr.write(`switchboard: ${err.message}\n`)
    process.exit(2)
  }
  throw err
}
