// `switchboard uninstall [--purge]`: Switchboard taken out of this machine, each step said in one line
// and each one harmless to repeat: its hook entries (Claude Code's, and the other agents'), the plugin
// and its marketplace entry, MCP server entries that run it, the hub (stopped so that no channel
// starts it again), and with --purge the home.
import { existsSync, rmSync } from 'node:fs'
import type { Command } from 'commander'
import { AGENT_HOOK_FILES, hookFilesOf } from './agent-hook-files.js'
import { ClaudeConfig, type Step } from './claude-plugin.js'
import { removeHooks, settingsFile } from './claude-settings.js'
import { forgetHookInstall, hookInstalls } from './hook-installs.js'
import { configFrom } from './options.js'
import { printJson } from './output.js'
import { describeStop, stopHub } from './stop.js'

export function registerUninstall(program: Command): void {
  program
    .command('uninstall')
    .description(
      'take Switchboard out of Claude Code (hooks, plugin, marketplace, MCP servers) and the other agents (hooks), and stop the hub; --purge also removes the home',
    )
    .option('--purge', 'also remove the home: events, senders, secrets, logs')
    .option('--json', 'the steps as JSON, for scripts')
    .action(async (opts: { purge?: boolean; json?: boolean }, command: Command) => {
      const config = configFrom(command)
      const claude = new ClaudeConfig()
      const steps: Step[] = []
      let failed = false
      const step = async (name: string, work: () => Promise<Step> | Step) => {
        let done: Step
        try {
          done = await work()
        } catch (err) {
          failed = true
          done = { step: name, changed: false, detail: `failed: ${(err as Error).message}` }
        }
        steps.push(done)
        if (!opts.json) process.stdout.write(`${done.step}: ${done.detail}\n`)
      }
      // The user's settings, and every project's the hooks were installed in.
      const hooksFiles = [...new Set([settingsFile(), ...hookInstalls(config.home, 'claude')])]
      await step('hooks', () => {
        const from = hooksFiles.filter((file) => removeHooks(file) > 0)
        for (const file of hooksFiles) forgetHookInstall(config.home, 'claude', file)
        return {
          step: 'hooks',
          changed: from.length > 0,
          detail: from.length ? `taken out of ${from.join(', ')}` : `none in ${hooksFiles.join(', ')}`,
        }
      })
      for (const entry of AGENT_HOOK_FILES) {
        const files = hookFilesOf(entry, config.home)
        await step(entry.what, () => {
          const from = files.filter((file) => entry.remove(file) > 0)
          for (const file of files) forgetHookInstall(config.home, entry.agent, file)
          return {
            step: entry.what,
            changed: from.length > 0,
            detail: from.length ? `taken out of ${from.join(', ')}` : `none in ${files.join(', ')}`,
          }
        })
      }
      await step('plugin', () => claude.removePlugin())
      await step('marketplace', () => claude.removeMarketplace())
      await step('MCP servers', () => claude.removeMcpServers())
      await step('hub', async () => {
        const stopped = await stopHub(config)
        return {
          step: 'hub',
          changed: stopped.stopped !== null,
          detail: describeStop(stopped).replace(/^hub: /, ''),
        }
      })
      await step('home', () => {
        if (!existsSync(config.home))
          return { step: 'home', changed: false, detail: `${config.home} is not there` }
        if (!opts.purge)
          return {
            step: 'home',
            changed: false,
            detail: `kept ${config.home} (events, senders, secrets, logs); --purge removes it`,
          }
        rmSync(config.home, { recursive: true, force: true })
        return { step: 'home', changed: true, detail: `removed ${config.home}` }
      })
      if (opts.json) printJson({ ok: !failed, steps })
      else
        process.stdout.write(
          'the command itself: npm unlink -g switchboard (after npm link), or npm uninstall -g switchboard\n',
        )
      if (failed) process.exitCode = 1
    })
}
