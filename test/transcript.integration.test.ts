// A transcript of tens of MB (a webhook sender can inflate one) served by the hub's one API
// (/api/sessions/<id>/lines and /stream), to the admin token and to a signed-in browser. Every
// line arrives, in order, while the hub's memory (its RSS, read from /proc) grows by a bound per view,
// not by the transcript: each view used to cost it four to six times the transcript.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openSqliteStore } from '../src/store/sqlite/index.js'
import { signInWith } from './helpers/dashboard.js'
import { CLI, TestHome } from './helpers/home.js'

const LINES = 16_000
/** Two lines past any sane size, among the rest. */
const HUGE = new Set([4_000, 12_000])
const HUGE_CHARS = 6 * 1024 * 1024
/**
 * What one view of the whole transcript may add to the hub's RSS, once its heap has its working size: a
 * fraction of what each view used to cost (four to six times the transcript, over 160 MB), with room
 * for a heap that collects late when the machine is busy (a view added 41 MB with the load average at 20).
 */
const BOUND_BYTES = 64 * 1024 * 1024
/** What the hub may grow by over every view here, the first (which sizes its heap) included. */
const TOTAL_BOUND_BYTES = 96 * 1024 * 1024

const inOrder = Array.from({ length: LINES }, (_, i) => i + 1)

let home: TestHome
let hub: ChildProcess
let adminToken: string
let browser: { authorization: string }
let transcriptBytes = 0
let started = 0

function rss(): number {
  const status = readFileSync(`/proc/${hub.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024
}

beforeAll(async () => {
  home = await TestHome.create()
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  await store.createSession({ id: 'ses_big', cwd: '/tmp', config: {}, status: 'idle' })
  const words = 'lorem ipsum dolor sit amet '.repeat(90)
  for (let n = 1; n <= LINES; n++) {
    const text = HUGE.has(n) ? 'x'.repeat(HUGE_CHARS) : `${n} ${words}`
    const line = { type: 'assistant', message: { content: [{ type: 'text', text }] } }
    transcriptBytes += JSON.stringify(line).length
    await store.appendSessionLine('ses_big', line)
  }
  await store.close()
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  adminToken = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
  const link = /(http:\/\/\S+\/signin\?token=\S+)/.exec(await home.cli('open', '--print'))?.[1] as string
  browser = await signInWith(link)
  started = rss()
  // The first view takes the hub's heap to its working size, whatever the transcript's.
  expect((await pageThrough('/api/sessions/ses_big', false)).seqs).toEqual(inOrder)
}, 300_000)

afterAll(async () => {
  hub?.kill('SIGTERM')
  await home?.cleanup()
})

const headers = (dashboard: boolean): Record<string, string> =>
  dashboard ? browser : { authorization: `Bearer ${adminToken}` }

type Page = { lines: { seq: number; line: Record<string, unknown> }[]; next?: number | null }

/** Pages through /lines as a client does, keeping only the seqs and what marks a cut line. */
async function pageThrough(base: string, dashboard: boolean) {
  const seqs: number[] = []
  const cut: number[] = []
  let after = 0
  for (let requests = 0; ; requests++) {
    expect(requests, 'pages').toBeLessThan(LINES)
    const res = await fetch(`${home.url}${base}/lines?after=${after}`, { headers: headers(dashboard) })
    expect(res.status).toBe(200)
    const page = (await res.json()) as Page
    for (const { seq, line } of page.lines) {
      seqs.push(seq)
      if (line.type === 'switchboard_cut') cut.push(seq)
    }
    if (page.next === null || page.next === undefined || page.lines.length === 0) break
    after = page.next
  }
  return { seqs, cut }
}

/** Reads an SSE replay to its last line, keeping only the seqs, then leaves. */
async function replay(path: string, dashboard: boolean) {
  const controller = new AbortController()
  const res = await fetch(`${home.url}${path}`, { headers: headers(dashboard), signal: controller.signal })
  expect(res.status).toBe(200)
  const seqs: number[] = []
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of res.body as ReadableStream<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    const whole = buffer.lastIndexOf('\n') + 1
    for (const m of buffer.slice(0, whole).matchAll(/^id: (\d+)$/gm)) seqs.push(Number(m[1]))
    buffer = buffer.slice(whole)
    if (seqs.at(-1) === LINES) break
  }
  controller.abort()
  return seqs
}

it('pages /lines with a cursor: every line once, in order, over-long ones cut, the hub’s memory bounded', {
  timeout: 300_000,
}, async () => {
  expect(transcriptBytes).toBeGreaterThan(40 * 1024 * 1024)
  for (const [base, dashboard] of [
    ['/api/sessions/ses_big', false],
    ['/api/sessions/ses_big', true],
  ] as const) {
    const before = rss()
    const { seqs, cut } = await pageThrough(base, dashboard)
    expect(seqs).toEqual(inOrder)
    expect(cut).toEqual([...HUGE])
    expect(rss() - before, `${base}/lines`).toBeLessThan(BOUND_BYTES)
  }
})

it('replays the SSE streams page by page: every line once, in order, the hub’s memory bounded', {
  timeout: 300_000,
}, async () => {
  for (const [path, dashboard] of [
    ['/api/sessions/ses_big/stream', false],
    ['/api/sessions/ses_big/stream', true],
  ] as const) {
    const before = rss()
    expect(await replay(path, dashboard)).toEqual(inOrder)
    expect(rss() - before, path).toBeLessThan(BOUND_BYTES)
  }
  expect(rss() - started, 'every view').toBeLessThan(TOTAL_BOUND_BYTES)
})
