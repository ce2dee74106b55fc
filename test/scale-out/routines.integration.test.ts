// A routine on two hubs sharing Postgres (issue 25): one hub at a time holds it, so an event posted
// to either starts one run; the holder killed while the run waits out its debounce, the other hub
// takes the routine and starts that run, once.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { RoutineRun } from '../../src/core/routines.js'
import { openPostgresStore } from '../../src/store/postgres/index.js'
import { type FakeClaude, fakeClaude } from '../helpers/fake-claude.js'
import { waitFor } from '../helpers/home.js'
import { type ClusterHub, clusterPerTest } from '../helpers/hub-cluster.js'

// Short leases: a dead hub's routines move within about a second and a half.
const world = clusterPerTest(2, {
  SWITCHBOARD_LEASE_MS: '1500',
  SWITCHBOARD_SESSION_ENV: 'FAKE_CLAUDE_SCRIPT',
})

async function runsOf(name: string): Promise<RoutineRun[]> {
  const store = await openPostgresStore(world.cluster.databaseUrl)
  try {
    return await store.routineRuns({ routine: name, limit: 100 })
  } finally {
    await store.close()
  }
}

/** The hub holding the routine's lease now, read from the database as any hub would. */
async function holderOf(lease: string): Promise<ClusterHub> {
  const store = await openPostgresStore(world.cluster.databaseUrl)
  try {
    const held = await store.getLease(lease)
    const hub = await store.getLease(`hub:${held?.holder}`)
    const found = world.cluster.hubs.find((h) => h.address === hub?.note)
    if (!found || !held || held.expiresAt < Date.now()) throw new Error(`no hub holds ${lease}`)
    return found
  } finally {
    await store.close()
  }
}

it('starts one run for an event whichever hub takes it, also when the routine’s hub dies before the run starts', {
  timeout: 120_000,
}, async () => {
  const fakes: FakeClaude[] = world.cluster.hubs.map((h) => {
    const fake = fakeClaude(h.home.dir, { turns: [{ steps: [{ say: 'looked' }] }] })
    h.home.extraEnv.CLAUDE_CODE_PATH = fake.env.CLAUDE_CODE_PATH as string
    h.home.extraEnv.FAKE_CLAUDE_SCRIPT = fake.env.FAKE_CLAUDE_SCRIPT as string
    return fake
  })
  const [first, second] = [world.cluster.hub(0), world.cluster.hub(1)]
  await first.start()
  await second.start()
  const secret = await first.home.addSource('alerts')
  const file = join(first.home.dir, 'routine.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'alerts',
      trigger: { kind: 'events', topics: ['alerts'] },
      key: '{{meta.group}}',
      // Long enough that the holder is killed before the run is due, however slow the machine.
      debounceSeconds: 8,
      action: { kind: 'start', folder: first.home.dir, prompt: 'look at {{meta.group}}' },
    }),
  )
  await first.home.cli('routine', 'add', file)
  const holder = await (async () => {
    let found: ClusterHub | undefined
    await waitFor(
      async () => {
        found = await holderOf('routine:alerts').catch(() => undefined)
        return found !== undefined
      },
      10_000,
      'a hub to hold the routine',
    )
    return found as ClusterHub
  })()
  const other = holder === first ? second : first
  // Posted to both hubs: the one that does not hold the routine stores it for the one that does.
  for (const [hub, group] of [
    [other, 'g1'],
    [holder, 'g1'],
  ] as const) {
    const res = await fetch(`${hub.url}/hooks/alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `db down (${hub.address})`, group }),
    })
    expect(res.status).toBe(202)
  }
  await waitFor(async () => (await runsOf('alerts'))[0]?.events === 2, 20_000, 'both events in one run')
  expect((await runsOf('alerts'))[0]?.state).toBe('pending')
  await holder.kill()
  await waitFor(async () => (await runsOf('alerts'))[0]?.state === 'done', 30_000, 'the run to be done')
  const runs = await runsOf('alerts')
  expect(runs.map((r) => [r.key, r.events, r.state])).toEqual([['g1', 2, 'done']])
  expect(fakes.flatMap((f) => f.runs())).toHaveLength(1)
  const prompt = readFileSync(join(other.home.dir, 'fake-claude.log'), 'utf8')
  expect(prompt).toContain('look at')
})
