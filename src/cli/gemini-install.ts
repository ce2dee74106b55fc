// `switchboard install gemini --hooks`: Switchboard's BeforeTool hook in Gemini CLI's settings.json,
// so that the tool calls that change things wait for a person in the one decision inbox; `--remove`
// takes it out again. Gemini skips its own dialog for an `allow` only under `--approval-mode yolo`,
// which is how the hook becomes the gate (README, Other agents).
import type { Command } from 'commander'
import { invalid } from '../core/errors.js'
import { addGeminiHook, GEMINI_MATCHER, geminiSettingsFile, removeGeminiHook } from './gemini-settings.js'
import { hookTarget } from './hook.js'
import { forgetHookInstall, recordHookInstall } from './hook-installs.js'
import { configFrom } from './options.js'

export function registerGeminiInstall(install: Command): void {
  install
    .command('gemini')
    .description('write Switchboard’s BeforeTool hook into Gemini CLI’s settings.json (or take it out)')
    .option('--hooks', 'the hook that brings a Gemini session’s shell commands and file edits to the hub')
    .option('--remove', 'take Switchboard’s hook out again, leaving every other hook and key')
    .option('--project <dir>', 'into <dir>/.gemini/settings.json instead of ~/.gemini/settings.json')
    .option(
      '--command',
      '`switchboard hook BeforeTool --agent gemini`, instead of curl down the hub’s socket',
    )
    .action(
      (
        opts: { hooks?: boolean; remove?: boolean; project?: string; command?: boolean },
        command: Command,
      ) => {
        if (!opts.hooks) throw invalid('say what to install: --hooks')
        const config = configFrom(command)
        const home = config.home
        const file = geminiSettingsFile(opts.project)
        if (opts.remove) {
          const removed = removeGeminiHook(file)
          forgetHookInstall(home, 'gemini', file)
          process.stdout.write(
            removed ? `Switchboard's hook is out of ${file}\n` : `no Switchboard hook in ${file}\n`,
          )
          return
        }
        const { target, how } = hookTarget(config, opts.command === true)
        addGeminiHook(file, target)
        recordHookInstall(home, 'gemini', file)
        const lines = [
          `the BeforeTool hook (${GEMINI_MATCHER}) is in ${file}, ${how}`,
          // The hook is the gate only when Gemini's own dialog does not come after its allow.
          'run Gemini with --approval-mode yolo: the hook asks the hub, and Gemini’s own dialog comes when nobody answers',
        ]
        if (opts.project)
          lines.push(
            'Gemini runs a project’s hooks only in a folder it trusts, and warns once of new ones (then lists them in ~/.gemini/trusted_hooks.json)',
          )
        process.stdout.write(`${lines.join('\n')}\n`)
      },
    )
}
