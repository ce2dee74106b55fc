// `switchboard doctor`: is this machine set up for Switchboard? Every problem comes with the command
// that fixes it; the exit code is 0 only when nothing is a problem (warnings allowed).
import { existsSync } from 'node:fs'
import type { Command } from 'commander'
import { localSocket } from '../client/hub-address.js'
import { type HubConfig, paths } from '../core/config.js'
import { openStore } from '../store/open.js'
import {
  type Check,
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
        operators = hub.status?.operators ?? (await operatorsInStore(config))
      }
      checks.push(
        ...(await checkClaude()),
        ...checkChannelRegistered(process.cwd()),
        ...checkPluginLaunch(config.home),
        ...checkHooks(localSocket(config)),
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

/**
 * With no hub up, the store says who the operators are (without creating one that is not there). The
 * one command besides `serve` that opens the store: it only reads, and only when no hub runs (doctor
 * must not start one to ask it), so the hub is still the store's one writer while it runs.
 */
async function operatorsInStore(config: HubConfig): Promise<number | null> {
  if (!config.databaseUrl && !existsSync(paths.database(config.home))) return null
  // A database that cannot be reached is the database check's to report.
  const store = await openStore(config).catch(() => null)
  if (!store) return null
  try {
    return await store.countOperators()
  } finally {
    await store.close()
  }
}
