// combine: the members of every part on one object, and no name from two parts.
import { describe, expect, it } from 'vitest'
import { combine } from './combine.js'

describe('combine', () => {
  it('joins the members of every part', async () => {
    const whole = combine({ ping: async () => 'pong' }, { count: () => 2 })
    expect(await whole.ping()).toBe('pong')
    expect(whole.count()).toBe(2)
  })

  it('refuses a name two parts both define, rather than let one replace the other', () => {
    expect(() => combine({ ack: () => 1 }, { ack: () => 2 })).toThrow('two parts of the store define ack')
  })

  it('refuses a class instance, whose methods are not its own members', () => {
    class Part {
      ack() {
        return 1
      }
    }
    expect(() => combine(new Part())).toThrow('combine takes plain objects')
  })
})
