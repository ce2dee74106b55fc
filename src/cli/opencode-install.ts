// `switchboard install opencode`: Switchboard's plugin in OpenCode's plugin folder, so that an
// OpenCode session's permission prompts reach the one decision inbox as Claude Code's do; `--remove`
// takes it out again. OpenCode loads its plugins when it starts: a session already running goes on
// without it (README, Other agents).
import type { Command } from 'commander'
import { localSocket } from '../client/hub-address.js'
import { forgetHookInstall, recordHookInstall } from './hook-installs.js'
import {
  addOpencodePlugin,
  opencodePluginFile,
  type PluginTarget,
  removeOpencodePlugin,
} from './opencode-plugin.js'
import { configFrom } from './options.js'

export function registerOpencodeInstall(install: Command): void {
  install
    .command('opencode')
    .description('write Switchboard’s plugin into OpenCode’s plugin folder (or take it out)')
    .option('--remove', 'take Switchboard’s plugin out again, leaving every other plugin')
    .option(
      '--project <dir>',
      'into <dir>/.opencode/plugin/ instead of $XDG_CONFIG_HOME/opencode/plugin/ (~/.config)',
    )
    .option('--command', '`switchboard hook PermissionRequest --agent opencode`, instead of the hub’s socket')
    .action((opts: { remove?: boolean; project?: string; command?: boolean }, command: Command) => {
      const config = configFrom(command)
      const file = opencodePluginFile(opts.project)
      if (opts.remove) {
        const removed = removeOpencodePlugin(file)
        forgetHookInstall(config.home, 'opencode', file)
        process.stdout.write(
          removed ? `Switchboard's plugin is out: ${file}\n` : `no Switchboard plugin at ${file}\n`,
        )
        return
      }
      const socketPath = opts.command ? undefined : localSocket(config)
      const target: PluginTarget = socketPath
        ? { via: 'socket', socketPath, waitSeconds: config.hookWaitSeconds }
        : { via: 'command', waitSeconds: config.hookWaitSeconds }
      addOpencodePlugin(file, target)
      recordHookInstall(config.home, 'opencode', file)
      const how = socketPath
        ? `to the hub's socket ${socketPath}`
        : opts.command
          ? 'as `switchboard hook PermissionRequest --agent opencode`'
          : `as \`switchboard hook PermissionRequest --agent opencode\` (the socket's path in ${config.home} is too long)`
      process.stdout.write(
        `the plugin is in ${file}, ${how}\nOpenCode loads it when it starts: sessions started before go on without it\n`,
      )
    })
}
