// `switchboard usage [--by …] [--since 7d] [--tz …] [--json|--csv]`: what driven sessions cost, from
// what their CLIs reported; and `switchboard budget set|list|remove`: projects' daily budgets.
import type { Command } from 'commander'
import { dailyAmountOf } from '../core/budgets.js'
import { invalid } from '../core/errors.js'
import { formatUsd } from '../core/money.js'
import { USAGE_GROUPS, usageQuerySchema } from '../core/usage.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'
import { usageCsv, usageTable } from './usage-table.js'

interface UsageFlags {
  by?: string
  since?: string
  tz?: string
  json?: boolean
  csv?: boolean
}

/** The thresholds `--at 50,80,100` names. */
function thresholdsOf(text: string): number[] {
  const said = text.split(/[\s,]+/).filter(Boolean)
  const ts = said.map((t) => Number(t.replace(/%$/, '')))
  if (!said.length || ts.some((t) => !Number.isInteger(t) || t < 1 || t > 100))
    throw invalid(`--at ${JSON.stringify(text)}: whole percents from 1 to 100, e.g. 50,80,100`)
  return ts
}

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description('what driven sessions cost, from what their CLIs reported (Codex’s turns are unpriced)')
    .option('--by <grouping>', USAGE_GROUPS.join(', '), 'project')
    .option('--since <when>', 'a span back (30m, 24h, 7d, 2w) or a date (2026-11-01)', '7d')
    .option('--tz <zone>', 'the time zone of --by day’s days', 'UTC')
    .option('--json', 'JSON, for scripts')
    .option('--csv', 'CSV, for spreadsheets and scripts')
    .action(async (opts: UsageFlags, command: Command) => {
      if (opts.json && opts.csv) throw invalid('choose one of --json and --csv')
      // Checked here as the hub checks it, so a typo is one line without a hub to ask.
      const parsed = usageQuerySchema.safeParse({ by: opts.by, since: opts.since, tz: opts.tz })
      // Each message starts with its flag's name: "by is one of …" reads as "--by is one of …".
      if (!parsed.success) throw invalid(`--${parsed.error.issues[0]?.message ?? 'invalid flags'}`)
      const report = await hubApi(command).call('usage', { query: parsed.data })
      if (opts.json) return printJson(report)
      process.stdout.write(opts.csv ? usageCsv(report) : usageTable(report))
    })

  const budget = program.command('budget').description('projects’ daily budgets (UTC days)')
  budget
    .command('set <project> <amount>')
    .description(
      'a project’s daily budget, e.g. 5/day: operators are told at --at, and at 100% its sessions stop',
    )
    .option('--at <percents>', 'the thresholds operators are told of', '50,80,100')
    .option('--json', 'JSON, for scripts')
    .action(
      async (project: string, amount: string, opts: { at: string; json?: boolean }, command: Command) => {
        const dailyUsd = dailyAmountOf(amount)
        if (dailyUsd === null)
          throw invalid(`${JSON.stringify(amount)} is not an amount of dollars a day, e.g. 5/day`)
        const set = await hubApi(command).call('setBudget', {
          params: { project },
          body: { dailyUsd, thresholds: thresholdsOf(opts.at) },
        })
        if (opts.json) return printJson(set)
        const at = set.budget.thresholds.map((t) => `${t}%`).join(', ')
        process.stdout.write(`${project}: ${formatUsd(set.budget.dailyUsd)} a day; operators told at ${at}\n`)
      },
    )
  budget
    .command('list')
    .description('every project’s daily budget, with what it spent today')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { budgets } = await hubApi(command).call('budgets')
      if (opts.json) return printJson({ budgets })
      if (!budgets.length) return void process.stdout.write('No budgets.\n')
      for (const b of budgets)
        process.stdout.write(
          `${b.project}: ${formatUsd(b.spentToday)} of ${formatUsd(b.dailyUsd)} today (UTC); told at ${b.thresholds.map((t) => `${t}%`).join(', ')}\n`,
        )
    })
  budget
    .command('remove <project>')
    .description('removes a project’s daily budget')
    .action(async (project: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('removeBudget', { params: { project } })
      process.stdout.write(`${project} has no budget now.\n`)
    })
}
