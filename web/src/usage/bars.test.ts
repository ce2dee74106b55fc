// The usage chart's bars: in proportion to the dearest project, a sliver for a cheap one, nothing
// for an unpriced one (its value says so), one row each.
import { expect, it } from 'vitest'
import { emptyTotal } from '../../../src/core/usage.ts'
import { barsOf, CHART_WIDTH, ROW_HEIGHT } from './bars.ts'

it('draws each project’s cost in proportion to the dearest, and says what an unpriced one is', () => {
  const { bars, height } = barsOf([
    { ...emptyTotal('api'), costUsd: 4 },
    { ...emptyTotal('web'), costUsd: 1, unpricedTurns: 2 },
    { ...emptyTotal('docs'), costUsd: 0.0001 },
    { ...emptyTotal(null), unpricedTurns: 1 },
  ])
  expect(bars.map((b) => [b.label, b.value, b.width, b.y])).toEqual([
    ['api', '$4.00', CHART_WIDTH, 0],
    ['web', '$1.00 + 2 unpriced', CHART_WIDTH / 4, ROW_HEIGHT],
    ['docs', '$0.0001', 2, 2 * ROW_HEIGHT],
    ['no project', '$0.00 + 1 unpriced', 0, 3 * ROW_HEIGHT],
  ])
  expect(height).toBe(4 * ROW_HEIGHT)
  expect(barsOf([]).bars).toEqual([])
})
