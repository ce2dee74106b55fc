// What it costs, through the API as the CLI and the dashboard call it: totals grouped each way (a
// day's in the asked time zone), precise 400s for a query that does not read, and budgets set and
// removed with the admin token only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import type { UsageEntry } from '../../core/usage.js'

let world: AppWorld
beforeEach(() => {
  world = appWorld()
})
afterEach(async () => {
  await world.close()
})

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` }
const get = (path: string) => world.request('GET', path, { headers: auth })

const turn = (extra: Partial<UsageEntry>): UsageEntry => ({
  sessionId: 'ses_a',
  at: Date.now(),
  project: 'api',
  agent: 'claude',
  routine: null,
  operator: 'ann',
  costUsd: 0.5,
  inputTokens: 10,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  ...extra,
})

describe('GET /api/usage', () => {
  it('answers totals by project, by agent and by day in a time zone, since when it is asked', async () => {
    const store = world.parts.hub.store
    // 23:30 UTC on the 20th is the 21st in Paris (UTC+1 in November).
    const late = Date.parse('2026-11-20T23:30:00Z')
    await store.recordUsage(turn({ at: late }))
    await store.recordUsage(turn({ at: late, project: 'web', agent: 'codex', costUsd: null }))
    await store.recordUsage(turn({ at: Date.parse('2026-11-20T12:00:00Z'), costUsd: 2 }))
    await store.recordUsage(turn({ at: Date.parse('2026-10-01T12:00:00Z'), costUsd: 100 }))

    const byProject = await get('/api/usage?by=project&since=2026-11-01')
    expect(byProject.status).toBe(200)
    expect(byProject.json.totals).toEqual([
      expect.objectContaining({ key: 'api', costUsd: 2.5, turns: 2, unpricedTurns: 0 }),
      expect.objectContaining({ key: 'web', costUsd: 0, turns: 1, unpricedTurns: 1 }),
    ])
    const byAgent = await get('/api/usage?by=agent&since=2026-11-01')
    expect((byAgent.json.totals as { key: string }[]).map((t) => t.key)).toEqual(['claude', 'codex'])

    const utc = await get('/api/usage?by=day&since=2026-11-01')
    expect((utc.json.totals as { key: string; costUsd: number }[]).map((t) => [t.key, t.costUsd])).toEqual([
      ['2026-11-20', 2.5],
    ])
    const paris = await get('/api/usage?by=day&since=2026-11-01&tz=Europe/Paris')
    expect((paris.json.totals as { key: string; costUsd: number }[]).map((t) => [t.key, t.costUsd])).toEqual([
      ['2026-11-20', 2],
      ['2026-11-21', 0.5],
    ])
  })

  it('answers 400 naming what does not read', async () => {
    const cases: [string, string][] = [
      ['by=colour', 'by: by is one of project, session, agent, routine, operator, day'],
      ['since=yesterday', 'since: since is a span back (30m, 24h, 7d, 2w) or a date (2026-11-01)'],
      ['tz=Mars/Olympus', 'tz: tz is not a time zone (UTC, Europe/Paris, America/New_York)'],
    ]
    for (const [query, error] of cases) {
      const answer = await get(`/api/usage?${query}`)
      expect([answer.status, answer.json.error]).toEqual([400, error])
    }
  })
})

describe('budgets', () => {
  it('are set and removed with the admin token, listed with what each project spent today', async () => {
    await world.parts.hub.store.recordUsage(turn({ costUsd: 1.25 }))
    const set = await world.request('POST', '/api/budgets/api', {
      headers: auth,
      body: { dailyUsd: 5, thresholds: [100, 50] },
    })
    expect(set.status).toBe(200)
    expect(set.json.budget).toMatchObject({
      project: 'api',
      dailyUsd: 5,
      thresholds: [50, 100],
      setBy: 'cli',
    })
    const listed = await get('/api/budgets')
    expect(listed.json.budgets).toEqual([expect.objectContaining({ project: 'api', spentToday: 1.25 })])

    const wrong = await world.request('POST', '/api/budgets/api', { headers: auth, body: { dailyUsd: -1 } })
    expect([wrong.status, wrong.json.error]).toEqual([400, 'dailyUsd: dailyUsd is more than 0'])

    const { token } = await world.parts.hub.access.addSender('ops', true)
    const operator = await world.request('POST', '/api/budgets/api', {
      headers: { authorization: `Bearer ${token}` },
      body: { dailyUsd: 500 },
    })
    expect(operator.status).toBe(401)
    expect((await world.request('DELETE', '/api/budgets/api', { headers: auth })).status).toBe(200)
    const again = await world.request('DELETE', '/api/budgets/api', { headers: auth })
    expect([again.status, again.json.error]).toEqual([404, 'project api has no budget'])
  })
})
