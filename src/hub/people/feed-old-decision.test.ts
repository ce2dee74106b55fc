// The dashboard's decision feed tells an open page of a prompt answered however many prompts came
// after it. It used to look the decision up among the newest 500 of its kind (every one of them read
// and sorted on each change: the three-hub soak slowed to half its pace after 15 minutes, Postgres
// scanning the whole table 27 times a second), so a prompt left open while 500 others came and went
// was answered without the page hearing of it.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import type { DecisionRow } from '../../core/api/rows.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

it('tells the feed of a prompt answered after 500 newer prompts of its kind', async () => {
  // An operator signed in: prompts and outcomes are stored for them, which is what the feed follows.
  await world.signIn()
  const told: DecisionRow[] = []
  world.parts.feed.subscribe((row) => told.push(row))

  const decisions = world.parts.hub.decisions
  const first = await decisions.openQuestion('desk', { question: 'Deploy now?' })
  for (let i = 0; i < 500; i++) {
    const later = await decisions.openQuestion(`desk-${i}`, { question: `Question ${i}?` })
    await decisions.answer(later, { behavior: 'allow' }, 'alice')
  }
  told.length = 0
  await decisions.answer(first, { behavior: 'deny' }, 'bob')

  expect(told.map((row) => ({ code: row.code, status: row.status, answeredBy: row.answeredBy }))).toEqual([
    { code: first.code, status: 'answered', answeredBy: 'bob' },
  ])
})
