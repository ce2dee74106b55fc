// `switchboard doctor`: is this machine set up for Switchboard? Every problem comes with the command
// that fixes it; the exit code is 0 only when nothing is a problem (warnings allowed).
import { existsSync } from 'node:fs'
import type { Command } from 'commander'
import { localSocket } from '../client/hub-address.js'
import {
  type Check,
  checkAgentHooks,
  checkChannelRegistered,
  checkClaude,
  checkDatabase,
  checkHome,
  checkHooks,
  checkHub,
  checkOperators,
  checkPluginLaunch,
} from './doctor-checks.js'
import { configFrom, hubApi } from './options.js'
import { printJson } from './output.js'

const MARK = { ok: 'ok  ', warn: 'warn', problem: 'FAIL' } as const

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'checks Claude Code, the channel and the plugin, hooks, the hub and the home folder; says how to fix each problem',
    )
    .option('--json', 'the checks as JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const config = configFrom(command)
      const homeExisted = existsSync(config.home)
      const checks: Check[] = [...checkHome(config.home), ...(await checkDatabase(config))]
      let operators: number | null = null
      if (homeExisted) {
        const hub = await checkHub(config, () => hubApi(command, 'doctor', false).call('status'))
        checks.push(...hub.checks)
        // Only a running hub counts them: doctor neither opens the store nor starts a hub to ask.
        operators = hub.status?.operators ?? null
      }
      checks.push(
        ...(await checkClaude()),
        ...checkChannelRegistered(process.cwd()),
        ...checkPluginLaunch(config.home),
        ...checkHooks(localSocket(config)),
        ...checkAgentHooks(config.home),
      )
      checks.push(...checkOperators(operators))
      const healthy = checks.every((c) => c.verdict !== 'problem')
      if (opts.json) printJson({ healthy, checks })
      else {
        for (const c of checks)
          process.stdout.write(
            `${MARK[c.verdict]}  ${c.name}: ${c.detail}${c.fix ? `\n        fix: ${c.fix}` : ''}\n`,
          )
        process.stdout.write(healthy ? 'healthy\n' : 'not healthy: fix the FAIL lines above\n')
      }
      if (!healthy) process.exitCode = 1
    })
}
