// bench/codec: decoding stream-json with Switchboard's NDJSON reader (chunked input, schema check,
// unknown fields kept) against plain JSON.parse of the same lines, in the same run.
import { performance } from 'node:perf_hooks'
import { checkCliLine } from '../../src/claude/messages.js'
import { NdjsonReader } from '../../src/claude/ndjson.js'
import { fmt, summarize } from '../stats.js'

const LINES = Number(process.env.BENCH_CODEC_LINES ?? 50_000)
const ROUNDS = Number(process.env.BENCH_CODEC_ROUNDS ?? 15)
const CHUNK = 64 * 1024

/** A mix like a real turn: many partial-message events, assistant blocks, tool results, results. */
function sampleLines(n: number): string[] {
  const session_id = '8c7d2053-0c8b-4a68-9334-24f348c80514'
  const lines: string[] = []
  for (let i = 0; i < n; i++) {
    const kind = i % 10
    if (kind < 6)
      lines.push(
        JSON.stringify({
          type: 'stream_event',
          session_id,
          event: {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: `token ${i} `.repeat(3) },
          },
          parent_tool_use_id: null,
          uuid: `u-${i}`,
        }),
      )
    else if (kind < 8)
      lines.push(
        JSON.stringify({
          type: 'assistant',
          session_id,
          message: {
            id: `msg_${i}`,
            role: 'assistant',
            model: 'claude-opus-5-5',
            content: [{ type: 'text', text: 'Some prose about the code. '.repeat(20) }],
            usage: { input_tokens: 1200, output_tokens: 300 },
          },
          parent_tool_use_id: null,
          uuid: `u-${i}`,
        }),
      )
    else if (kind === 8)
      lines.push(
        JSON.stringify({
          type: 'user',
          session_id,
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'line of output\n'.repeat(40) },
            ],
          },
          uuid: `u-${i}`,
        }),
      )
    else
      lines.push(
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: 'done',
          session_id,
          num_turns: 3,
          total_cost_usd: 0.0123,
          usage: { input_tokens: 5000, output_tokens: 900 },
          modelUsage: {},
          permission_denials: [],
          terminal_reason: 'completed',
          duration_ms: 4200,
        }),
      )
  }
  return lines
}

const lines = sampleLines(LINES)
const text = `${lines.join('\n')}\n`
const bytes = Buffer.from(text)
const chunks: Buffer[] = []
for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK))

function plain(): number {
  let n = 0
  for (const line of text.split('\n')) if (line) n += JSON.parse(line) ? 1 : 0
  return n
}

function switchboard(): number {
  let n = 0
  const reader = new NdjsonReader(checkCliLine, () => n++)
  for (const chunk of chunks) reader.push(chunk)
  reader.end()
  return n
}

function measure(run: () => number): number[] {
  const seconds: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now()
    const n = run()
    seconds.push((performance.now() - t0) / 1000)
    if (n !== LINES) throw new Error(`decoded ${n} of ${LINES} lines`)
  }
  return seconds
}

// Warm both paths before measuring either, then alternate so neither gets a kinder machine.
measure(plain)
measure(switchboard)
const base: number[] = []
const ours: number[] = []
for (let i = 0; i < 3; i++) {
  base.push(...measure(plain))
  ours.push(...measure(switchboard))
}
const mb = bytes.length / 1024 / 1024
const b = summarize(base)
const s = summarize(ours)
console.log(`bench/codec — ${LINES} stream-json lines (${fmt(mb, 1)} MiB), ${base.length} rounds each`)
console.log(
  `  JSON.parse of split lines   median ${fmt(mb / b.p50, 1)} MiB/s  ${fmt(LINES / b.p50, 0)} lines/s`,
)
console.log(
  `  Switchboard NdjsonReader    median ${fmt(mb / s.p50, 1)} MiB/s  ${fmt(LINES / s.p50, 0)} lines/s  (64 KiB chunks, schema checked)`,
)
console.log(`  ratio (throughput)          ${fmt(b.p50 / s.p50, 2)}x   (target ≥ 0.80x)`)
