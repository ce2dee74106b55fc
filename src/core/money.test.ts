import { describe, expect, it } from 'vitest'
import { formatUsd, roundUsd } from './money.js'

describe('money', () => {
  it('prints a sum of floats to the cent, not as the float', () => {
    expect(formatUsd(0.1 + 0.2)).toBe('$0.30')
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(0.01)).toBe('$0.01')
    expect(formatUsd(1.234)).toBe('$1.23')
    expect(formatUsd(1234.5)).toBe('$1,234.50')
  })

  it('shows a cost below a cent to the hundredth of a cent, so it does not read as free', () => {
    expect(formatUsd(0.0042)).toBe('$0.0042')
    expect(formatUsd(0.00421)).toBe('$0.0042')
  })

  it('keeps a sum to the millionth of a dollar', () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3)
    expect(roundUsd(0.0000014)).toBe(0.000001)
  })
})
