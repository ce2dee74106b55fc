// The geometry of the usage page's chart: one horizontal bar per project, its length in proportion
// to the dearest, in a viewBox the SVG scales to its box (a phone's 390 px or a desktop's width).
// Horizontal bars keep each project's name readable whatever its length and however many there are.
import { formatUsd } from '../../../src/core/money.ts'
import type { UsageTotal } from '../../../src/core/usage.ts'

export const CHART_WIDTH = 320
export const BAR_HEIGHT = 18
/** A bar's row: its name above it, the bar, and room before the next. */
export const ROW_HEIGHT = 48

export interface Bar {
  label: string
  /** What the bar's end says: its cost, and its unpriced turns if any. */
  value: string
  y: number
  width: number
}

export function barsOf(totals: UsageTotal[]): { bars: Bar[]; height: number } {
  const most = Math.max(0, ...totals.map((t) => t.costUsd))
  const bars = totals.map((t, i) => ({
    label: t.key ?? 'no project',
    value: `${formatUsd(t.costUsd)}${t.unpricedTurns ? ` + ${t.unpricedTurns} unpriced` : ''}`,
    y: i * ROW_HEIGHT,
    // A bar of a cost above nothing is at least a sliver, so a cheap project still shows one.
    width: most > 0 ? Math.max(t.costUsd > 0 ? 2 : 0, (t.costUsd / most) * CHART_WIDTH) : 0,
  }))
  return { bars, height: Math.max(ROW_HEIGHT, totals.length * ROW_HEIGHT) }
}
