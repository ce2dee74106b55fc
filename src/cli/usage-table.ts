// A usage report as `switchboard usage` prints it: a table for people (costs to the cent, unpriced
// turns said so rather than shown as free, a total), or CSV for scripts (RFC 4180, numbers as they
// are kept).
import { formatUsd, roundUsd } from '../core/money.js'
import { emptyTotal, type UsageReport, type UsageTotal } from '../core/usage.js'

/** What a turn's cost column says: its sum, and how many of its turns had no price. */
function costText(t: UsageTotal): string {
  if (t.turns > 0 && t.unpricedTurns === t.turns) return 'unpriced'
  return `${formatUsd(t.costUsd)}${t.unpricedTurns ? ` (+${t.unpricedTurns} unpriced)` : ''}`
}

const count = (n: number) => n.toLocaleString('en-US')

function sum(totals: UsageTotal[]): UsageTotal {
  const all = emptyTotal('total')
  for (const t of totals) {
    all.costUsd = roundUsd(all.costUsd + t.costUsd)
    all.unpricedTurns += t.unpricedTurns
    all.turns += t.turns
    all.inputTokens += t.inputTokens
    all.outputTokens += t.outputTokens
    all.cacheReadTokens += t.cacheReadTokens
    all.cacheWriteTokens += t.cacheWriteTokens
  }
  return all
}

export function usageTable(report: UsageReport): string {
  const since = new Date(report.since).toISOString().replace(/\.\d+Z$/, 'Z')
  if (!report.totals.length) return `No usage since ${since}.\n`
  const head = [report.by, 'cost', 'turns', 'input', 'output', 'cache read', 'cache write']
  const row = (t: UsageTotal) => [
    t.key ?? '(none)',
    costText(t),
    count(t.turns),
    count(t.inputTokens),
    count(t.outputTokens),
    count(t.cacheReadTokens),
    count(t.cacheWriteTokens),
  ]
  const rows = [head, ...report.totals.map(row)]
  if (report.totals.length > 1) rows.push(row(sum(report.totals)))
  const widths = head.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)))
  // The first two columns are words, read from the left; the counts line up on the right.
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd()
  const zone = report.by === 'day' ? ` (days in ${report.tz})` : ''
  return `Since ${since}${zone}:\n${rows.map(line).join('\n')}\n`
}

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
function field(value: string | number | null): string {
  const text = value === null ? '' : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function usageCsv(report: UsageReport): string {
  const head = [
    report.by,
    'cost_usd',
    'unpriced_turns',
    'turns',
    'input_tokens',
    'output_tokens',
    'cache_read_tokens',
    'cache_write_tokens',
  ]
  const rows = report.totals.map((t) => [
    t.key,
    t.costUsd,
    t.unpricedTurns,
    t.turns,
    t.inputTokens,
    t.outputTokens,
    t.cacheReadTokens,
    t.cacheWriteTokens,
  ])
  return [head, ...rows].map((r) => `${r.map(field).join(',')}\r\n`).join('')
}
