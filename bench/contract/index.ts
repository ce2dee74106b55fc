// `npm run bench:contract`: the delivery contract's figures (README, "The delivery contract"): per rung
// of the ladder, what it promises and the measured p50/p99 from a webhook's 202 to `written` and to
// `in_context`, with the real Claude Code CLI offline against the fake Messages API. One event at a
// time while the session is idle. BENCH_CONTRACT_N (20) events per rung after BENCH_CONTRACT_WARMUP
// (2); BENCH_CONTRACT_RUNGS=channel,hooks,… picks rungs.
import { loadavg } from 'node:os'
import { fmt } from '../stats.js'
import { channelRung } from './channel.js'
import { drivenRung } from './driven.js'
import { elicitationRung } from './elicitation.js'
import { hooksRung } from './hooks.js'
import { noticeRung } from './notice.js'
import { outboundRung } from './outbound.js'
import type { Rung, Summary } from './rung.js'

const N = Number(process.env.BENCH_CONTRACT_N ?? 20)
const WARMUP = Number(process.env.BENCH_CONTRACT_WARMUP ?? 2)
const ALL: Rung[] = [channelRung, drivenRung, hooksRung, elicitationRung, noticeRung, outboundRung]
const picked = process.env.BENCH_CONTRACT_RUNGS?.split(',').map((s) => s.trim())
const rungs = picked ? ALL.filter((r) => picked.includes(r.name)) : ALL
const unknown = picked?.filter((name) => !ALL.some((r) => r.name === name)) ?? []
if (unknown.length) {
  console.error(
    `BENCH_CONTRACT_RUNGS: no rung ${unknown.join(', ')} (the rungs: ${ALL.map((r) => r.name).join(', ')})`,
  )
  process.exit(2)
}

const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ')
const cell = (s: Summary | null) => (s ? `${fmt(s.p50, 0)} / ${fmt(s.p99, 0)} ms` : '—')

console.log(`load average at start: ${load()}; ${N} events per rung after ${WARMUP} warm-up`)
console.log('| rung | promise | 202 → written p50 / p99 | 202 → in_context p50 / p99 |')
console.log('|---|---|---|---|')
const notes: string[] = []
let failed = false
for (const rung of rungs) {
  try {
    const f = await rung.measure(N, WARMUP)
    console.log(`| ${rung.name} | ${rung.promise} | ${cell(f.written)} | ${cell(f.inContext)} |`)
    if (f.note) notes.push(`${rung.name}: ${f.note}`)
  } catch (err) {
    failed = true
    console.log(`| ${rung.name} | ${rung.promise} | failed: ${(err as Error).message.split('\n')[0]} | |`)
  }
}
for (const note of notes) console.log(note)
console.log(`load average after: ${load()}`)
process.exit(failed ? 1 : 0)
