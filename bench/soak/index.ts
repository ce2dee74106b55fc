// npm run soak [-- --minutes 60 --hubs 3]: the load and soak of issue 37 (bench/soak/run.ts), its
// table printed, and a non-zero exit naming each target missed.
import { parseArgs } from 'node:util'
import { soakTable } from './figures.js'
import { runSoak } from './run.js'

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env.SOAK_MINUTES ?? '60' },
    warmup: { type: 'string', default: process.env.SOAK_WARMUP_MINUTES },
    hubs: { type: 'string', default: process.env.SOAK_HUBS ?? '1' },
    channels: { type: 'string', default: process.env.SOAK_CHANNELS ?? '100' },
    operators: { type: 'string', default: process.env.SOAK_OPERATORS ?? '20' },
    rate: { type: 'string', default: process.env.SOAK_RATE ?? '50' },
    seed: { type: 'string', default: process.env.SOAK_SEED },
  },
})

const number = (name: string, text: string | undefined, min: number): number => {
  const n = Number(text)
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name}: a number of at least ${min}, not "${text}"`)
    process.exit(2)
  }
  return n
}

const minutes = number('minutes', values.minutes, 0.5)
// A signal ends the traffic and stops every hub, channel and database the soak started (their
// processes would outlive it otherwise); a second one does not wait for that.
const stopping = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (stopping.signal.aborted) process.exit(130)
    console.error(`soak: ${signal}; stopping its hubs and channels`)
    stopping.abort(new Error(`stopped by ${signal}`))
  })
const figures = await runSoak({
  minutes,
  // The first minutes are the hub's and the channels' settling in: five of an hour, a fifth of less.
  // A hub's RSS rises to its plateau until about minute 5 (two hours on one hub: 152 and 141 MB at
  // minute 2, 157-159 from minute 5, and within 3% of that for the 55 minutes after); measured from
  // minute 2, its growth was its start.
  warmupMinutes: number('warmup', values.warmup ?? String(Math.min(5, minutes / 5)), 0),
  hubs: number('hubs', values.hubs, 1),
  channels: number('channels', values.channels, 1),
  operators: number('operators', values.operators, 2),
  perSecond: number('rate', values.rate, 1),
  ...(values.seed ? { seed: number('seed', values.seed, 0) } : {}),
  log: (line) => console.log(line),
  signal: stopping.signal,
}).catch((error: unknown) => {
  if (!stopping.signal.aborted) throw error
  console.error('soak: stopped before its figures; nothing left running')
  process.exit(130)
})
console.log(`\n${soakTable(figures)}`)
process.exit(figures.missed.length ? 1 : 0)
