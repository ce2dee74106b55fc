// `switchboard usage` as a person and a script read it: a table whose costs are to the cent, whose
// unpriced turns say so and whose counts line up, with a total; CSV quoted where it must be.
import { expect, it } from 'vitest'
import { emptyTotal, type UsageReport } from '../core/usage.js'
import { usageCsv, usageTable } from './usage-table.js'

const report: UsageReport = {
  by: 'project',
  since: Date.parse('2026-11-21T00:00:00Z'),
  tz: 'UTC',
  totals: [
    { ...emptyTotal('api'), costUsd: 2.500001, turns: 12, inputTokens: 120_000, outputTokens: 4_000 },
    { ...emptyTotal('web, old'), costUsd: 0.004, unpricedTurns: 1, turns: 3, inputTokens: 900 },
    { ...emptyTotal(null), unpricedTurns: 2, turns: 2, inputTokens: 50 },
  ],
}

it('prints a table with costs to the cent, unpriced turns said so, and a total', () => {
  expect(usageTable(report)).toBe(
    [
      'Since 2026-11-21T00:00:00Z:',
      'project   cost                  turns    input  output  cache read  cache write',
      'api       $2.50                    12  120,000   4,000           0            0',
      'web, old  $0.004 (+1 unpriced)      3      900       0           0            0',
      '(none)    unpriced                  2       50       0           0            0',
      'total     $2.50 (+3 unpriced)      17  120,950   4,000           0            0',
      '',
    ].join('\n'),
  )
  expect(usageTable({ ...report, totals: [] })).toBe('No usage since 2026-11-21T00:00:00Z.\n')
  expect(
    usageTable({ ...report, by: 'day', tz: 'Europe/Paris', totals: [emptyTotal('2026-11-21')] }),
  ).toMatch(/^Since 2026-11-21T00:00:00Z \(days in Europe\/Paris\):\nday /)
})

it('prints CSV with a header, numbers as kept, and a field with a comma quoted', () => {
  expect(usageCsv(report).split('\r\n')).toEqual([
    'project,cost_usd,unpriced_turns,turns,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens',
    'api,2.500001,0,12,120000,4000,0,0',
    '"web, old",0.004,1,3,900,0,0,0',
    ',0,2,2,50,0,0,0',
    '',
  ])
})
