// What an operator's feed writes: each row only after a check of its reader begun after the row came,
// in order, and no more than one check for the rows that came while the last one ran.
import { expect, it, vi } from 'vitest'
import { checkedWrites } from './sse.js'

/** A feed whose checks answer only when told to, as a busy store does; what it wrote, and its end. */
function gatedFeed() {
  const pending: ((ok: boolean) => void)[] = []
  const written: number[] = []
  const end = vi.fn(async () => {})
  const check = () => new Promise<boolean>((resolve) => pending.push(resolve))
  return {
    push: checkedWrites(check, async (n: number) => void written.push(n), end),
    written,
    end,
    asked: () => pending.length,
    answer: (ok: boolean) => pending.shift()?.(ok),
  }
}

it('writes rows in order, with one check for the rows that came while the last one ran', async () => {
  const gate = gatedFeed()
  const { push, written, end } = gate

  push(1)
  for (let n = 2; n <= 50; n++) push(n)
  expect(gate.asked()).toBe(1) // for 1 alone: 2–50 came after it began
  gate.answer(true)
  await vi.waitFor(() => expect(written).toEqual([1]))
  await vi.waitFor(() => expect(gate.asked()).toBe(1)) // one check for 2–50
  for (let n = 51; n <= 60; n++) push(n)
  gate.answer(true)
  await vi.waitFor(() => expect(written).toHaveLength(50))
  await vi.waitFor(() => expect(gate.asked()).toBe(1)) // one check for 51–60
  gate.answer(true)
  await vi.waitFor(() => expect(written).toEqual(Array.from({ length: 60 }, (_, i) => i + 1)))
  expect(gate.asked()).toBe(0)
  expect(end).not.toHaveBeenCalled()
})

it('writes nothing that came before a check that says no, and ends the stream', async () => {
  const gate = gatedFeed()
  const { push, written, end } = gate

  push(1)
  gate.answer(true)
  await vi.waitFor(() => expect(written).toEqual([1]))
  push(2) // the reader was demoted before this row's check answered
  gate.answer(false)
  await vi.waitFor(() => expect(end).toHaveBeenCalledOnce())
  expect(written).toEqual([1])
})

it('ends the stream when a write fails, and writes nothing after it', async () => {
  const written: number[] = []
  const end = vi.fn(async () => {})
  const push = checkedWrites(
    async () => true,
    async (n: number) => {
      if (n === 2) throw new Error('the page closed the stream')
      written.push(n)
    },
    end,
  )
  push(1)
  push(2)
  push(3)
  await vi.waitFor(() => expect(end).toHaveBeenCalledOnce())
  expect(written).toEqual([1])
})
