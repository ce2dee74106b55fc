// A span of time as people write it — `90s`, `10m`, `24h`, `7d`, `2w` — read once here for every
// setting and flag that takes one (decisionTimeout, `usage --since`); each says which units it takes.

const UNIT_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
}

/**
 * The span `text` says, in milliseconds; null when it is not one of `units`. `bare`: the unit of a
 * number written without one (none: a unit is required).
 */
export function spanMs(text: string, units: string, bare?: string): number | null {
  const m = /^(\d+)\s*([a-z]?)$/.exec(text.trim().toLowerCase())
  if (!m) return null
  const unit = m[2] || bare
  if (!unit || !units.includes(unit)) return null
  return Number(m[1]) * (UNIT_MS[unit] as number)
}
