// bench/routines: a webhook POST → the routine's run started its session (the CLI spawned) → the
// CLI's first model request at the fake Messages API, with the real Claude Code CLI offline, over N
// runs one after another. The spawn is the session's createdAt: the hub writes the session's record
// and spawns its CLI right after (session-manager.ts create), so the hub's share is the POST to that
// record, and the CLI's share is its start-up up to its first request. All three clocks are Date.now()
// on one machine (milliseconds).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RoutineRun } from '../../src/core/routines.js'
import type { SessionView } from '../../src/core/session-api.js'
import { FakeAnthropic, latestTurn } from '../../test/fakes/anthropic.js'
import { ClaudeHome } from '../../test/helpers/claude.js'
import { adminCall, startDrivingHub, type World } from '../../test/helpers/e2e.js'
import { TestHome, waitFor } from '../../test/helpers/home.js'
import { postWebhook } from '../../test/helpers/receipts.js'
import { fmt, summarize } from '../stats.js'

const RUNS = Number(process.env.BENCH_ROUTINE_RUNS ?? 10)
const WARMUP = 1

const world: World = {
  fake: await new FakeAnthropic().start(),
  home: await TestHome.create(),
  claude: new ClaudeHome(),
  closers: [],
}
/** When each request reached the fake API, and which run's event it carried (runs never overlap). */
const requests: { at: number; marker: string | undefined }[] = []
world.fake.respond((request) => {
  requests.push({ at: Date.now(), marker: /bench-run-\d+/.exec(latestTurn(request))?.[0] })
  return { text: 'looked into it' }
})

async function api<T>(path: string): Promise<T> {
  const { status, json } = await adminCall<T>(world, 'GET', path)
  if (status !== 200) throw new Error(`${path}: ${status} ${JSON.stringify(json)}`)
  return json
}

interface Sample {
  hub: number
  cli: number
  total: number
}

/** One webhook POST, timed until its run's session has made its first model request and is done. */
async function once(n: number, secret: string): Promise<Sample> {
  const marker = `bench-run-${n}`
  const posted = Date.now()
  await postWebhook(world, 'bench', secret, JSON.stringify({ marker }))
  let run: RoutineRun | undefined
  // The run is done once its session's turn is: its CLI stopped, so runs never overlap.
  await waitFor(
    async () => {
      const { runs } = await api<{ runs: RoutineRun[] }>('/api/routines/bench/runs')
      run = runs.length === n + 1 ? runs[0] : undefined
      if (run?.state === 'failed' || run?.state === 'stopped') throw new Error(`run ${n}: ${run.reason}`)
      return run?.state === 'done'
    },
    60_000,
    `run ${n} to be done`,
  )
  const session = await api<SessionView>(`/api/sessions/${run?.sessionId}`)
  const spawned = session.createdAt
  // The CLI's first request of the run, whatever it asks; the run's event must be in one of them.
  const mine = requests.filter((r) => r.at >= posted)
  if (!mine.some((r) => r.marker === marker)) throw new Error(`run ${n}: no model request named ${marker}`)
  const asked = mine[0]?.at ?? Number.NaN
  return { hub: spawned - posted, cli: asked - spawned, total: asked - posted }
}

try {
  await startDrivingHub(world)
  const secret = await world.home.addSource('bench')
  const file = join(world.home.dir, 'bench-routine.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'bench',
      trigger: { kind: 'events', topics: ['bench'] },
      action: {
        kind: 'start',
        folder: world.claude.cwd,
        prompt: 'A webhook came: look into it.',
        maxTurns: 1,
      },
    }),
  )
  await world.home.cli('routine', 'add', file)

  const samples: Sample[] = []
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const sample = await once(i, secret)
    if (i >= WARMUP) samples.push(sample)
  }
  const hubShare = summarize(samples.map((s) => s.hub))
  const cliShare = summarize(samples.map((s) => s.cli))
  const total = summarize(samples.map((s) => s.total))
  const share = samples.map((s) => (100 * s.hub) / s.total)

  console.log(
    `bench/routines — webhook POST → session started → first model request, ${RUNS} runs (+${WARMUP} warm-up)`,
  )
  console.log(
    `  POST → CLI spawned (hub)           p50 ${fmt(hubShare.p50, 0)} ms  p99 ${fmt(hubShare.p99, 0)} ms`,
  )
  console.log(
    `  spawned → first request (CLI)      p50 ${fmt(cliShare.p50, 0)} ms  p99 ${fmt(cliShare.p99, 0)} ms`,
  )
  console.log(`  POST → first request (whole)       p50 ${fmt(total.p50, 0)} ms  p99 ${fmt(total.p99, 0)} ms`)
  console.log(
    `  the hub's share                    p50 ${fmt(summarize(share).p50, 1)} %  (of its run's whole, per run)`,
  )
} finally {
  for (const close of world.closers.splice(0).reverse()) await close()
  await world.fake.close()
  await world.home.cleanup()
  world.claude.cleanup()
}
