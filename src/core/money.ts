// Money as every surface prints it (the CLI, chat notices, push, the dashboard). A cost is a sum of
// floats, Claude Code's own and the hub's over a session's turns, so it is never printed as the float
// itself ($0.30000000000000004): to the cent, and below a cent to the hundredth of one, so a cheap
// turn does not read as free.

const toCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})
const belowACent = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
})

/** "$0.30", "$1,234.50", "$0.0042". */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '$?'
  return (usd !== 0 && Math.abs(usd) < 0.01 ? belowACent : toCents).format(usd)
}

/**
 * A sum of costs as it is kept and sent (the store, an event's `cost_usd`, the API's JSON): to the
 * millionth of a dollar, which is finer than any price and drops what adding floats leaves behind.
 */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6
}
