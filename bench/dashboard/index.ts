// bench/dashboard: the dashboard in headless Chromium (playwright-core, Debian's /usr/bin/chromium)
// against a hub on 127.0.0.1. First load to interactive (fresh browser contexts, signed in by key
// beforehand); a 10,000-line transcript written into the store before the hub starts: load to its last
// line shown, the entries in the page (windowed), scrolling it top to bottom (frame intervals), and
// a jump back to its first entry; and the size of the built page (dist/web/assets, raw and gzipped).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { CHROMIUM, launchChromium } from '../../test/helpers/chromium.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const LOADS = Number(process.env.BENCH_DASHBOARD_LOADS ?? 30)
const WARMUP = 3
const LINES = Number(process.env.BENCH_TRANSCRIPT_LINES ?? 10_000)
const TRANSCRIPT_LOADS = Number(process.env.BENCH_TRANSCRIPT_LOADS ?? 5)
const SCROLL_STEPS = 50
const VIEWPORT = { width: 1280, height: 800 }
const ASSETS = resolve(import.meta.dirname, '../../dist/web/assets')

// The page's globals, typed just enough for the functions run in it (this tsconfig has no DOM lib).
interface El {
  textContent: string | null
  disabled?: boolean
  click(): void
  querySelector(selector: string): El | null
  querySelectorAll(selector: string): { length: number } & Iterable<El>
}
declare const document: El & {
  documentElement: { scrollHeight: number }
  createTreeWalker(root: El): { nextNode(): unknown }
}
declare const window: { innerHeight: number; scrollY: number; scrollTo(x: number, y: number): void }
declare function requestAnimationFrame(callback: (at: number) => void): number
declare class MutationObserver {
  constructor(callback: () => void)
  observe(target: unknown, options: { childList?: boolean; subtree?: boolean; attributes?: boolean }): void
  disconnect(): void
}

// --- a realistic transcript --------------------------------------------------------------------

/** mulberry32: the same transcript every run. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FILES = [
  'src/hub/server.ts',
  'src/hub/http/app.ts',
  'src/store/sqlite/sessions.ts',
  'src/claude/process.ts',
  'src/cli/open.ts',
  'web/src/Transcript.tsx',
  'web/src/useTranscript.ts',
  'test/e2e/dashboard.e2e.test.ts',
]
const SAYS = [
  'Let me look at how the hub serves the page before changing anything.',
  "The tests pass locally. I'll check the types next.",
  'That failure comes from the fixture, not from the change: the fake answers before the hub subscribes.',
  "I'll run the focused test again to confirm the fix.",
  'Reading the store code to see how lines are numbered.',
  'The lint step wants the import sorted; fixing that.',
  'Good, nothing else refers to the old name. Moving on to the docs.',
]

/** A Bash command and what it printed, varied like a real session's. */
function bashStep(rnd: () => number, n: number): { command: string; description: string; output: string } {
  const file = FILES[Math.floor(rnd() * FILES.length)] as string
  const lines = (k: number, line: (i: number) => string) => Array.from({ length: k }, (_, i) => line(i))
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return {
        command: 'git status --short',
        description: 'Show changed files',
        output: lines(1 + Math.floor(rnd() * 6), (i) => ` M ${FILES[(n + i) % FILES.length]}`).join('\n'),
      }
    case 1:
      return {
        command: `npx vitest run ${file.replace(/^src\//, 'test/').replace(/\.tsx?$/, '.test.ts')}`,
        description: 'Run the focused tests',
        output: [
          '',
          ` RUN  v4.1.12 /work/main`,
          '',
          ...lines(
            3 + Math.floor(rnd() * 12),
            (i) => ` ✓ ${file} > case ${n}.${i} ${Math.floor(rnd() * 90)}ms`,
          ),
          '',
          ` Test Files  1 passed (1)`,
          `      Tests  ${8 + (n % 20)} passed (${8 + (n % 20)})`,
          `   Duration  ${(1 + rnd() * 4).toFixed(2)}s`,
        ].join('\n'),
      }
    case 2:
      return {
        command: `rg -n "sessionLines" src web`,
        description: 'Find the callers',
        output: lines(
          2 + Math.floor(rnd() * 8),
          (i) =>
            `${FILES[(n + i) % FILES.length]}:${10 + Math.floor(rnd() * 300)}:    const rows = await store.sessionLines(id, after, ${i * 100})`,
        ).join('\n'),
      }
    case 3:
      return {
        command: `sed -n ${n % 200},${(n % 200) + 30}p ${file}`,
        description: `Read ${file}`,
        output: lines(
          30,
          (i) => `  ${i % 3 === 0 ? 'const' : 'await'} value${i} = compute(${i}, '${file}') // step ${n}`,
        ).join('\n'),
      }
    case 4:
      return {
        command: 'npm run typecheck',
        description: 'Type-check',
        output: `\n> switchboard@0.1.0 typecheck\n> tsc -p tsconfig.json --noEmit && npm run typecheck:web\n`,
      }
    default:
      return {
        command: `ls -la ${file.split('/').slice(0, -1).join('/')}`,
        description: 'List the folder',
        output: lines(
          4 + Math.floor(rnd() * 10),
          (i) => `-rw-r--r-- 1 me me ${1000 + Math.floor(rnd() * 20000)} Nov 23 12:${10 + i} file-${i}.ts`,
        ).join('\n'),
      }
  }
}

/** Claude Code's stream-json lines: a system init, then turns of 20 lines (a result line ends each). */
function transcriptLines(count: number, sessionId: string): { lines: object[]; lastText: string } {
  const rnd = random(42)
  const claude = 'b3c0e6a2-5d1f-4c7e-9a43-0f2b8d6e1c95'
  const out: object[] = [
    {
      type: 'system',
      subtype: 'init',
      cwd: '/work/main',
      session_id: claude,
      tools: ['Bash', 'Edit', 'Read', 'Write', 'Grep', 'Glob'],
      model: 'claude-sonnet-4-5-20250929',
      permissionMode: 'default',
    },
  ]
  const uuid = () => randomBytes(16).toString('hex')
  const assistant = (content: object[]) => ({
    type: 'assistant',
    message: {
      id: `msg_${uuid()}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content,
      stop_reason: null,
      usage: { input_tokens: 4, cache_read_input_tokens: 21_000, output_tokens: 180 },
    },
    parent_tool_use_id: null,
    session_id: claude,
    uuid: uuid(),
  })
  const user = (content: object[] | string) => ({
    type: 'user',
    message: { role: 'user', content },
    parent_tool_use_id: null,
    session_id: claude,
    uuid: uuid(),
  })
  let turn = 0
  while (out.length < count - 1) {
    turn++
    const started = out.length
    out.push(user(`Turn ${turn}: fix the failing dashboard test and tell me what was wrong.`))
    out.push(assistant([{ type: 'text', text: `${SAYS[turn % SAYS.length]} (turn ${turn})` }]))
    for (let step = 0; step < 8; step++) {
      const n = turn * 10 + step
      const bash = bashStep(rnd, n)
      const id = `toolu_${uuid()}`
      const use = {
        type: 'tool_use',
        id,
        name: 'Bash',
        input: { command: bash.command, description: bash.description },
      }
      // Most calls come with a sentence first; some come alone.
      out.push(
        assistant(rnd() < 0.6 ? [{ type: 'text', text: `${SAYS[n % SAYS.length]} [${n}]` }, use] : [use]),
      )
      const failed = rnd() < 0.05
      out.push(
        user([
          {
            tool_use_id: id,
            type: 'tool_result',
            content: failed ? `Exit code 1\n${bash.output}` : bash.output,
            is_error: failed,
          },
        ]),
      )
    }
    out.push(assistant([{ type: 'text', text: `Fixed in turn ${turn}: the test now waits for the hub.` }]))
    out.push({
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 20_000 + Math.floor(rnd() * 90_000),
      duration_api_ms: 15_000 + Math.floor(rnd() * 60_000),
      num_turns: 9,
      result: `Fixed in turn ${turn}: the test now waits for the hub.`,
      session_id: claude,
      total_cost_usd: 0.05 + rnd() * 0.4,
      usage: { input_tokens: 40, output_tokens: 2_000 },
      uuid: uuid(),
    })
    if (out.length - started !== 20) throw new Error('a turn is 20 lines')
  }
  out.length = Math.min(out.length, count - 1)
  const lastText = `All ${count} lines are here: the last one (${sessionId}).`
  out.push(assistant([{ type: 'text', text: lastText }]))
  return { lines: out, lastText }
}

// --- the browser side ----------------------------------------------------------------------------

/** Spends a sign-in link's token the way the page does, for the key the page would keep. */
async function signInKey(home: TestHome): Promise<{ origin: string; key: string }> {
  const printed = await home.cli('open', '--print')
  const url = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1]
  if (!url) throw new Error(`no sign-in link in: ${printed}`)
  const { origin, searchParams } = new URL(url)
  const res = await fetch(`${origin}/api/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switchboard': '1' },
    body: JSON.stringify({ token: searchParams.get('token') }),
  })
  if (res.status !== 201) throw new Error(`sign-in answered ${res.status}`)
  return { origin, key: ((await res.json()) as { key: string }).key }
}

/** A fresh context (no cache, no storage) holding only the browser's key, in the hub's origin. */
async function freshContext(
  browser: Browser,
  signedIn: { origin: string; key: string },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  // tsx (esbuild, keepNames) wraps named functions in __name(), which the page does not have.
  await context.addInitScript('globalThis.__name = (f) => f')
  await context.addInitScript(
    `if (location.origin === ${JSON.stringify(signedIn.origin)}) localStorage.setItem('switchboard.key', ${JSON.stringify(signedIn.key)})`,
  )
  return context
}

/** Scrolls the window from top to bottom in `steps` steps, one per frame; rAF timestamps give frame intervals. */
async function scrollThrough(page: Page): Promise<{ totalMs: number; intervals: number[]; height: number }> {
  return page.evaluate(async (steps) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r))
    window.scrollTo(0, 0)
    await frame()
    await frame()
    const height = document.documentElement.scrollHeight
    const max = height - window.innerHeight
    const stamps = [await frame()]
    for (let i = 1; i <= steps; i++) {
      window.scrollTo(0, Math.round((max * i) / steps))
      stamps.push(await frame())
    }
    // The frame after the last step's callback is the one that shows it.
    stamps.push(await frame())
    const intervals = stamps.slice(1).map((t, i) => t - (stamps[i] as number))
    return { totalMs: (stamps.at(-1) as number) - (stamps[0] as number), intervals, height }
  }, SCROLL_STEPS)
}

/** What the transcript holds now: its entries in the page, and its element and node counts. */
async function transcriptSize(page: Page): Promise<{ entries: number; elements: number; nodes: number }> {
  return page.evaluate(() => {
    const section = document.querySelector('section.transcript') as El
    const walker = document.createTreeWalker(section)
    let nodes = 1
    while (walker.nextNode()) nodes++
    return {
      entries: section.querySelectorAll('.rows > .entry').length,
      elements: section.querySelectorAll('*').length + 1,
      nodes,
    }
  })
}

/** From the bottom to the top in one jump: ms until the first entry (the session start) is painted. */
async function jumpToTop(page: Page, firstText: string): Promise<number> {
  return page.evaluate(async (text) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r))
    window.scrollTo(0, document.documentElement.scrollHeight)
    await frame()
    await frame()
    const t0 = performance.now()
    window.scrollTo(0, 0)
    for (;;) {
      await frame()
      const first = document.querySelector('.rows > .entry')
      if (first?.textContent?.includes(text)) return performance.now() - t0
      if (performance.now() - t0 > 10_000) return Number.NaN
    }
  }, firstText)
}

// --- the run -------------------------------------------------------------------------------------

function assetSizes(): string[] {
  const files = readdirSync(ASSETS).sort()
  let raw = 0
  let gz = 0
  const rows = files.map((f) => {
    const bytes = readFileSync(join(ASSETS, f))
    const zipped = gzipSync(bytes).length
    raw += bytes.length
    gz += zipped
    return `  ${f.padEnd(26)} ${fmt(bytes.length / 1024, 1).padStart(7)} KiB  gzip ${fmt(zipped / 1024, 1).padStart(6)} KiB`
  })
  return [
    `front end (dist/web/assets, ${files.length} files): ${fmt(raw / 1024, 1)} KiB, gzip ${fmt(gz / 1024, 1)} KiB (node:zlib, default level)`,
    ...rows,
  ]
}

if (!existsSync(ASSETS)) throw new Error('no dist/web/assets: run npm run build first')

const out: string[] = []
const home = await TestHome.create()
let hub: ChildProcess | null = null
let browser: Browser | null = null
try {
  // The long session, written before the hub starts, as the SessionManager stores one (StoredConfig).
  const sessionId = `ses_bench${randomBytes(6).toString('hex')}`
  const { lines, lastText } = transcriptLines(LINES, sessionId)
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  try {
    await store.createSession({
      id: sessionId,
      cwd: home.dir,
      config: { options: { cwd: home.dir }, setup: { transport: 'stdio' }, peer: false },
      status: 'idle',
    })
    for (const line of lines) await store.appendSessionLine(sessionId, line as Record<string, unknown>)
  } finally {
    await store.close()
  }
  const transcriptBytes = lines.reduce<number>((n, l) => n + JSON.stringify(l).length, 0)

  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub(15_000)
  browser = await launchChromium()
  const signedIn = await signInKey(home)
  const hubUrl = signedIn.origin

  // 1. First load to interactive: a fresh context each time, the key set beforehand.
  const toInteractive: number[] = []
  const inPage: number[] = []
  for (let i = 0; i < WARMUP + LOADS; i++) {
    const context = await freshContext(browser, signedIn)
    // In the page: navigation start → the enabled button in the DOM (no driver round trips).
    await context.addInitScript(() => {
      const seen = () =>
        [...document.querySelectorAll('button')].some((b) => b.textContent === 'Start session' && !b.disabled)
      const observer = new MutationObserver(() => {
        if (!seen()) return
        ;(globalThis as { buttonAt?: number }).buttonAt = performance.now()
        observer.disconnect()
      })
      observer.observe(document, { childList: true, subtree: true, attributes: true })
    })
    const page = await context.newPage()
    const button = page.getByRole('button', { name: 'Start session', exact: true, disabled: false })
    const t0 = performance.now()
    await page.goto(`${hubUrl}/`, { waitUntil: 'commit' })
    await button.waitFor({ state: 'visible' })
    const ms = performance.now() - t0
    const at = await page.evaluate(() => (globalThis as { buttonAt?: number }).buttonAt ?? Number.NaN)
    if (i >= WARMUP) {
      toInteractive.push(ms)
      inPage.push(at)
    }
    await context.close()
  }
  const load = summarize(toInteractive)
  const loadInPage = summarize(inPage)
  out.push(
    `first load → "Start session" visible and enabled  p50 ${fmt(load.p50, 1)} ms  p99 ${fmt(load.p99, 1)} ms  (n=${load.n}, fresh context each, ${WARMUP} warm-up)`,
    `  in the page (navigation start → button in the DOM)  p50 ${fmt(loadInPage.p50, 1)} ms  p99 ${fmt(loadInPage.p99, 1)} ms`,
  )

  // 2. The long transcript: load until its last line shows (fresh context each), then on the last
  // page loaded: its size, a scroll through it, "Show earlier" to the top, and a scroll through all.
  const toLast: number[] = []
  let page: Page | null = null
  for (let i = 0; i < 1 + TRANSCRIPT_LOADS; i++) {
    if (page) await page.context().close()
    page = await (await freshContext(browser, signedIn)).newPage()
    const t0 = performance.now()
    await page.goto(`${hubUrl}/#/sessions/${sessionId}`, { waitUntil: 'commit' })
    await page.getByText(lastText, { exact: true }).waitFor({ state: 'visible', timeout: 120_000 })
    if (i >= 1) toLast.push(performance.now() - t0)
  }
  if (!page) throw new Error('no transcript page')
  const last = summarize(toLast)
  const loaded = await transcriptSize(page)
  const entries = await page.evaluate(() => document.querySelectorAll('.rows').length)
  // Twice: the first pass measures every entry it meets; the second scrolls a list of known heights.
  const scroll = await scrollThrough(page)
  const scrollFrames = summarize(scroll.intervals)
  const again = await scrollThrough(page)
  const againFrames = summarize(again.intervals)
  const toTop = await jumpToTop(page, 'Session started')
  const slow = (xs: number[]) => xs.filter((x) => x > 50).length
  const scrolled = (label: string, s: typeof scroll, f: typeof scrollFrames) =>
    `  ${label}, ${SCROLL_STEPS} steps (one per frame, ${s.height} px): ${fmt(s.totalMs, 0)} ms; frame interval p50 ${fmt(f.p50, 1)} ms  p99 ${fmt(f.p99, 1)} ms  max ${fmt(Math.max(...s.intervals), 1)} ms  (${slow(s.intervals)} frames > 50 ms)`
  if (entries !== 1) throw new Error('no transcript list in the page')
  out.push(
    `transcript of ${LINES} stream-json lines (${fmt(transcriptBytes / 1024 / 1024, 1)} MiB as JSON)`,
    `  open #/sessions/<id> → last line visible  p50 ${fmt(last.p50, 0)} ms  max ${fmt(last.p99, 0)} ms  (n=${last.n}, fresh context each, 1 warm-up)`,
    `  after load: ${loaded.entries} entries in the page (windowed), ${loaded.elements} elements, ${loaded.nodes} DOM nodes in the transcript (incl. text)`,
    scrolled('scroll top → bottom', scroll, scrollFrames),
    scrolled('again (heights known)', again, againFrames),
    `  bottom → top in one jump: first entry painted after ${fmt(toTop, 0)} ms`,
  )
  await page.context().close()

  // 3. The built front end.
  out.push(...assetSizes())
} finally {
  await browser?.close()
  if (hub && hub.exitCode === null && hub.signalCode === null) hub.kill('SIGTERM')
  await home.cleanup()
}

process.stdout.write(
  `bench/dashboard (headless Chromium ${CHROMIUM}, hub on 127.0.0.1, viewport ${VIEWPORT.width}×${VIEWPORT.height})\n${out.join('\n')}\n`,
)
process.exit(0)
