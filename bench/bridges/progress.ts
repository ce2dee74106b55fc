// bench/bridges/progress: a 100-tool turn at `/progress normal` on each platform, through the hub's
// bridge (the platform's real client library) and its fake on 127.0.0.1; the turn comes from a session
// at a terminal (its hooks), a tool every BENCH_PROGRESS_GAP_MS. Says how many edits the phone got,
// the most in any window of the platform's limit against that limit, and how long after the last
// tool the finished status was shown.
import { performance } from 'node:perf_hooks'
import { BRIDGE_PLATFORMS, type BridgePlatform } from '../../src/core/bridges.js'
import { EDIT_LIMITS } from '../../src/hub/bridges/progress-pace.js'
import { mostInWindow } from '../../test/fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person, spawnHub } from '../../test/helpers/bridge-world.js'
import { postHook } from '../../test/helpers/claude-hook.js'
import { TestHome } from '../../test/helpers/home.js'
import { fmt } from '../stats.js'

const TOOLS = Number(process.env.BENCH_PROGRESS_TOOLS ?? 100)
const GAP_MS = Number(process.env.BENCH_PROGRESS_GAP_MS ?? 100)
const PLATFORMS = (process.env.BENCH_PLATFORMS?.split(',') ?? BRIDGE_PLATFORMS) as BridgePlatform[]
const SESSION = '5f0c1a2e-0000-4000-8000-0000000be4c4'

async function measure(platform: BridgePlatform): Promise<string> {
  const fake = await FAKES[platform]()
  const home = await TestHome.create()
  await home.cli(...bridgeAddArgs(fake))
  const hub = spawnHub(home)
  try {
    await home.waitForHub(15_000)
    await fake.waitFor(() => fake.receivers() > 0, 'the bridge', 30_000)
    const olga = person(platform, 2, 'olga')
    const dm = await pair(home, fake, olga, true)
    await fake.dm(olga, '/progress normal')
    await fake.waitFor(() => botMessages(fake, dm).find((m) => /Progress here now/.test(m.text)), 'the level')
    const hook = (event: string, extra: Record<string, unknown>) =>
      postHook(home, event, {
        session_id: SESSION,
        transcript_path: '/tmp/t.jsonl',
        cwd: home.dir,
        hook_event_name: event,
        ...extra,
      })
    for (let i = 0; i < TOOLS; i++) {
      await hook('PostToolUse', { tool_name: 'Bash', tool_input: { command: `make step-${i}` } })
      await new Promise((resolve) => setTimeout(resolve, GAP_MS))
    }
    const lastTool = performance.now()
    await hook('Stop', { stop_hook_active: false })
    const status = await fake.waitFor(
      () => botMessages(fake, dm).find((m) => /^✓ .*turn finished/.test(m.text)),
      'the finished status',
      60_000,
    )
    const finalMs = performance.now() - lastTool
    const edits = fake.edits.filter((e) => e.messageId === status.messageId)
    const limit = EDIT_LIMITS[platform]
    const most = mostInWindow(
      edits.map((e) => e.at),
      limit.windowMs,
    )
    const messages = botMessages(fake, dm).filter((m) => /^(⏳|✓) /.test(m.text)).length
    return `${platform.padEnd(9)} ${TOOLS} tools over ${fmt((TOOLS * GAP_MS) / 1000, 1)} s: ${messages} message, ${edits.length} edits; most in ${limit.windowMs / 1000} s: ${most} (limit ${limit.max}); last tool → finished status ${fmt(finalMs, 0)} ms`
  } finally {
    hub.kill('SIGTERM')
    await home.cleanup()
    await fake.close()
  }
}

const lines: string[] = []
for (const platform of PLATFORMS) lines.push(await measure(platform))
process.stdout.write(
  `bench/bridges/progress (a turn at /progress normal, real client libraries, fakes)\n${lines.join('\n')}\n`,
)
process.exit(0)
