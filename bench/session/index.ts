// bench/session: from "create a session" to its first assistant line, through Switchboard's hub
// (HTTP API, stored stream, SSE) and with the bare CLI in the same run; and the hub's memory per
// driven session. The real CLI runs offline against the fake Messages API.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { FakeAnthropic } from '../../test/fakes/anthropic.js'
import { CLAUDE_BIN, ClaudeHome } from '../../test/helpers/claude.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const RUNS = Number(process.env.BENCH_SESSION_RUNS ?? 12)
const MEMORY_SESSIONS = Number(process.env.BENCH_SESSION_MEMORY ?? 30)

const fake = await new FakeAnthropic().start()
fake.respond(() => ({ text: 'first words' }))
const claude = new ClaudeHome()
const home = await TestHome.create()
const env = {
  ...claude.env(fake.url),
  SWITCHBOARD_HOME: home.dir,
  SWITCHBOARD_PORT: String(home.port),
  CLAUDE_CODE_PATH: CLAUDE_BIN,
}
const hub: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
await home.waitForHub(10_000)
const token = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

/** The bare CLI: spawn, write the prompt, read stdout until the first assistant line. */
async function bare(): Promise<number> {
  const t0 = performance.now()
  const child = spawn(
    CLAUDE_BIN,
    ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
    {
      cwd: claude.cwd,
      env: claude.env(fake.url),
    },
  )
  child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } })}\n`)
  let buffer = ''
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk
      if (buffer.split('\n').some((l) => l.startsWith('{"type":"assistant"'))) resolve()
    })
  })
  const ms = performance.now() - t0
  child.stdin.end()
  await new Promise((r) => child.once('exit', r))
  return ms
}

/** Through the hub: POST /sessions, then its SSE stream until the first assistant line. */
async function throughHub(): Promise<{ ms: number; id: string }> {
  const t0 = performance.now()
  const res = await fetch(`${home.url}/api/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: 'hello', options: { cwd: claude.cwd } }),
  })
  const { id } = (await res.json()) as { id: string }
  const controller = new AbortController()
  const stream = await fetch(`${home.url}/api/sessions/${id}/stream`, { headers, signal: controller.signal })
  if (!stream.ok) throw new Error(`GET /api/sessions/${id}/stream: ${stream.status}`)
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of stream.body as ReadableStream<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    if (buffer.includes('data: {"type":"assistant"')) break
  }
  const ms = performance.now() - t0
  controller.abort()
  return { ms, id }
}

async function hubRss(): Promise<number> {
  const status = readFileSync(`/proc/${hub.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024
}

try {
  await bare() // warm the CLI's files into the page cache
  await throughHub()
  const bareMs: number[] = []
  const hubMs: number[] = []
  for (let i = 0; i < RUNS; i++) {
    bareMs.push(await bare())
    hubMs.push((await throughHub()).ms)
  }
  const b = summarize(bareMs)
  const h = summarize(hubMs)

  // Memory: the hub's resident size with N more idle, live sessions (their CLIs are separate processes).
  await new Promise((r) => setTimeout(r, 1000))
  const before = await hubRss()
  for (let i = 0; i < MEMORY_SESSIONS; i++) await throughHub()
  await new Promise((r) => setTimeout(r, 1000))
  const after = await hubRss()

  console.log(`bench/session — create → first assistant line, ${RUNS} runs each, alternating`)
  console.log(`  bare CLI          p50 ${fmt(b.p50, 1)} ms  p99 ${fmt(b.p99, 1)} ms`)
  console.log(`  through the hub   p50 ${fmt(h.p50, 1)} ms  p99 ${fmt(h.p99, 1)} ms`)
  console.log(`  ratio             p50 ${fmt(h.p50 / b.p50, 2)}x   (target ≤ 1.10x)`)
  console.log(
    `  hub memory        ${fmt(before / 1024 / 1024, 1)} MiB → ${fmt(after / 1024 / 1024, 1)} MiB with ${MEMORY_SESSIONS} more live sessions: ` +
      `${fmt((after - before) / MEMORY_SESSIONS / 1024, 0)} KiB per driven session (the CLI processes themselves not counted)`,
  )
} finally {
  hub.kill('SIGTERM')
  await new Promise((r) => hub.once('exit', r))
  await fake.close()
  await home.cleanup()
  claude.cleanup()
}
