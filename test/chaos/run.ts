// `npm run chaos`: the long run. CHAOS_EVENTS, CHAOS_HUB_KILLS, CHAOS_CHANNEL_KILLS and CHAOS_SEED
// override the defaults; the seed is printed, so a failing run can be repeated. CHAOS_CLI runs
// another build's dist/cli/main.js.
import { runChaos } from './chaos.js'

const env = (name: string, fallback?: number) =>
  process.env[name] === undefined ? fallback : Number(process.env[name])

const result = await runChaos({
  events: env('CHAOS_EVENTS', 10_000) as number,
  hubKills: env('CHAOS_HUB_KILLS', 10) as number,
  channelKills: env('CHAOS_CHANNEL_KILLS', 4) as number,
  seed: env('CHAOS_SEED'),
  log: (line) => console.error(line),
  keepHomeOnFailure: true,
  cli: process.env.CHAOS_CLI,
})

const rows: [string, number | string][] = [
  ['seed', result.seed],
  ['sent', result.sent],
  ['accepted', result.accepted],
  ['seen', result.seen],
  ['lost', result.lost],
  ['shown twice', result.shownTwice],
  ['out of order', result.outOfOrder],
  ['pending in store', result.pendingInStore],
  ['retries', result.retries],
  ['hub kills', result.hubKills],
  ['channel kills', result.channelKills],
  ['duration', `${(result.durationMs / 1000).toFixed(1)} s`],
]
for (const [name, value] of rows) console.log(`${name.padEnd(18)}${String(value).padStart(10)}`)
for (const line of result.findings.slice(0, 100)) console.log(line)
if (result.findings.length > 100) console.log(`… and ${result.findings.length - 100} more`)
if (result.home) console.log(`home kept for a look: ${result.home}`)

const kept =
  result.lost === 0 && result.shownTwice === 0 && result.outOfOrder === 0 && result.pendingInStore === 0
process.exit(kept ? 0 : 1)
