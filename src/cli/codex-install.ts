// `switchboard install codex --hooks`: Switchboard's PermissionRequest hook in Codex's config.toml,
// trusted as Codex trusts a hook (the hash Codex itself lists for it), so that a Codex session's
// permission prompts reach the one decision inbox as Claude Code's do; `--remove` takes it out again.
import type { Command } from 'commander'
import { invalid } from '../core/errors.js'
import { onPath } from '../core/on-path.js'
import { addCodexHook, codexConfigFile, recordTrust, removeCodexHook } from './codex-config.js'
import { codexHookHash } from './codex-trust.js'
import { hookTarget } from './hook.js'
import { forgetHookInstall, recordHookInstall } from './hook-installs.js'
import { configFrom } from './options.js'

export function registerCodexInstall(install: Command): void {
  install
    .command('codex')
    .description('write Switchboard’s PermissionRequest hook into Codex’s config.toml (or take it out)')
    .option('--hooks', 'the hook that brings every Codex session’s permission prompts to the hub')
    .option('--remove', 'take Switchboard’s hook out again, leaving every other hook and key')
    .option('--project <dir>', 'into <dir>/.codex/config.toml instead of $CODEX_HOME/config.toml')
    .option(
      '--command',
      '`switchboard hook PermissionRequest --agent codex`, instead of curl down the hub’s socket',
    )
    .action(
      async (
        opts: { hooks?: boolean; remove?: boolean; project?: string; command?: boolean },
        command: Command,
      ) => {
        if (!opts.hooks) throw invalid('say what to install: --hooks')
        const config = configFrom(command)
        const home = config.home
        const file = codexConfigFile(opts.project)
        // Codex keeps whom it trusts in the user's own config, a project's hooks too.
        const stateFile = codexConfigFile()
        if (opts.remove) {
          const removed = removeCodexHook(file, stateFile)
          forgetHookInstall(home, 'codex', file)
          process.stdout.write(
            removed ? `Switchboard's hook is out of ${file}\n` : `no Switchboard hook in ${file}\n`,
          )
          return
        }
        const { target, how } = hookTarget(config, opts.command === true)
        const key = addCodexHook(file, target)
        recordHookInstall(home, 'codex', file)
        process.stdout.write(`the PermissionRequest hook is in ${file}, ${how}\n`)
        const codex = onPath('codex')
        const listed = codex
          ? await codexHookHash(codex, key, opts.project ?? process.cwd())
          : { why: 'no codex on PATH' }
        if ('hash' in listed) {
          recordTrust(stateFile, key, listed.hash)
          process.stdout.write(`Codex trusts it (${stateFile}: hooks.state)\n`)
        } else
          process.stdout.write(
            `not trusted yet (${listed.why}): Codex skips it until you trust it with /hooks in Codex\n`,
          )
      },
    )
}
