// `npm run chaos`: the long run. CHAOS_EVENTS, CHAOS_HUB_KILLS, CHAOS_CHANNEL_KILLS and CHAOS_SEED
// override the defaults; the seed is printed, so a failing run can be repeated. CHAOS_CLI runs
// another build's dist/cli/main.js.
//
// `npm run chaos -- --partitions`: links between network namespaces cut instead of processes killed
// (partitions.ts; root and iproute2). CHAOS_FLAP_SECONDS sets how long the links flap (180).
import { runChaos } from './chaos.js'
import { netnsUnavailable } from './netns.js'
import { missed, runPartitions } from './partitions.js'

const env = (name: string, fallback?: number) =>
  process.env[name] === undefined ? fallback : Number(process.env[name])

const print = (rows: [string, number | string][]) => {
  for (const [name, value] of rows) console.log(`${name.padEnd(18)}${String(value).padStart(10)}`)
}

if (process.argv.includes('--partitions')) {
  const unavailable = netnsUnavailable()
  if (unavailable) {
    console.error(unavailable)
    process.exit(2)
  }
  const result = await runPartitions({
    flapMs: (env('CHAOS_FLAP_SECONDS', 180) as number) * 1000,
    calmMs: 5_000,
    seed: env('CHAOS_SEED'),
    log: (line) => console.error(line),
    keepOnFailure: true,
    cli: process.env.CHAOS_CLI,
  })
  console.log(`seed ${result.seed}`)
  for (const s of result.scenarios) {
    console.log(`\n${s.name}${missed(s) ? '  — TARGET MISSED' : ''}`)
    print([
      ['sent', s.sent],
      ['accepted', s.accepted],
      ['seen', s.seen],
      ['lost', s.lost],
      ['shown twice', s.shownTwice],
      ['out of order', s.outOfOrder],
      ['stalls', s.stalls],
      ['two holders', s.overlaps],
      ...(s.rejoined === undefined ? [] : ([['rejoined', s.rejoined ? 'yes' : 'no']] as [string, string][])),
      ...(s.chat === undefined
        ? []
        : ([
            ['bridge moved to', s.chat.bridgeMovedTo ?? 'none'],
            ['prompts in chat', s.chat.prompts],
            ['replies in chat', s.chat.replies],
            ['lines in session', s.chat.lines],
          ] as [string, number | string][])),
      ['duration', `${(s.durationMs / 1000).toFixed(1)} s`],
    ])
    if (s.cut)
      for (const h of s.handOvers ?? [])
        console.log(
          `${h.lease} ${s.cut.victim} → ${s.cut.survivor}: stopped ${h.stoppedAt === null ? 'never' : `+${h.stoppedAt} ms`}, taken ${h.takenAt === null ? 'never' : `+${h.takenAt} ms`}`,
        )
    console.log('fencing order:')
    for (const line of s.fencing) console.log(`  ${line}`)
    for (const line of s.findings.slice(0, 50)) console.log(line)
  }
  if (result.homes) console.log(`homes kept for a look: ${result.homes.join(' ')}`)
  process.exit(result.scenarios.some(missed) ? 1 : 0)
}

const result = await runChaos({
  events: env('CHAOS_EVENTS', 10_000) as number,
  hubKills: env('CHAOS_HUB_KILLS', 10) as number,
  channelKills: env('CHAOS_CHANNEL_KILLS', 4) as number,
  seed: env('CHAOS_SEED'),
  log: (line) => console.error(line),
  keepHomeOnFailure: true,
  cli: process.env.CHAOS_CLI,
})

print([
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
])
for (const line of result.findings.slice(0, 100)) console.log(line)
if (result.findings.length > 100) console.log(`… and ${result.findings.length - 100} more`)
if (result.home) console.log(`home kept for a look: ${result.home}`)

const kept =
  result.lost === 0 && result.shownTwice === 0 && result.outOfOrder === 0 && result.pendingInStore === 0
process.exit(kept ? 0 : 1)
