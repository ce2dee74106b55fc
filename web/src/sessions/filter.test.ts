import { describe, expect, it } from 'vitest'
import { matchesFilter } from './filter.ts'

describe('the Sessions page filter', () => {
  const row = ['/home/ann/projects/switchboard', 'Fix the flaky Delivery test', 'ses_4f2a', null, undefined]

  it('shows every row while nothing is typed', () => {
    expect(matchesFilter('', row)).toBe(true)
    expect(matchesFilter('   ', row)).toBe(true)
  })

  it('matches each typed word anywhere in any field, ignoring case and order', () => {
    expect(matchesFilter('delivery SWITCHBOARD', row)).toBe(true)
    expect(matchesFilter('  flaky   4f2a ', row)).toBe(true)
  })

  it('hides a row missing any one word, even one that spans two fields', () => {
    expect(matchesFilter('delivery chat', row)).toBe(false)
    expect(matchesFilter('switchboardfix', row)).toBe(false)
  })
})
