// A channel confirming against its session's transcript (issue 23) while its hub dies: the in_context
// receipt it sent into a hub that never read it is said again once the hub, started again, sends the
// event again. The channel is played by the MCP SDK client as Claude Code; the transcript is written
// by the test where Claude Code would write it.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { projectFolderName } from '../src/claude/transcript-file.js'
import type { ReceiptView } from '../src/core/receipts.js'
import { ChannelClient } from './helpers/channel-client.js'
import { alive, CLI, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

async function deliveries(id: string): Promise<ReceiptView[]> {
  const token = readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()
  const res = await fetch(`${world.home.url}/api/events/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  return ((await res.json()) as { deliveries: ReceiptView[] }).deliveries
}

it('records in_context for an event confirmed while its hub was dying, once the channel has started a new hub', {
  timeout: 60_000,
}, async () => {
  const first = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  world.opened.push({ close: () => first.kill('SIGKILL') }) // stopped below: SIGTERM would not end it
  await world.home.waitForHub()
  const secret = await world.home.addSource('ci')
  // The session: Claude Code's HOME, its folder, its session id, and the transcript it will write.
  const claudeHome = realpathSync(mkdtempSync(join(tmpdir(), 'claude-home-')))
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'claude-project-')))
  world.opened.push({
    close: () => {
      rmSync(claudeHome, { recursive: true, force: true })
      rmSync(cwd, { recursive: true, force: true })
    },
  })
  const sessionId = randomUUID()
  const folder = join(claudeHome, '.claude', 'projects', projectFolderName(cwd))
  mkdirSync(folder, { recursive: true })
  const transcript = join(folder, `${sessionId}.jsonl`)
  const c = await ChannelClient.start(
    world.home,
    ['--name', 'dying'],
    { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: sessionId, HOME: claudeHome },
    cwd,
  )
  world.opened.push(c)

  const posted = await fetch(`${world.home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'deploy 7 failed',
  })
  const { id } = (await posted.json()) as { id: string }
  const [event] = await c.waitForEvents(1)
  await waitFor(async () => (await deliveries(id))[0]?.state === 'written', 10_000, 'the written receipt')

  // The hub stops reading; Claude Code takes the event into the conversation; the channel sees it
  // there and says so into a connection nobody reads any more; then the hub dies.
  process.kill(first.pid as number, 'SIGSTOP')
  const tag = `<channel source="switchboard" event_id="${id}">\n${event?.content}\n</channel>`
  appendFileSync(
    transcript,
    `${JSON.stringify({
      type: 'user',
      message: { role: 'user', content: tag },
      isMeta: true,
      origin: { kind: 'channel', server: 'switchboard' },
      timestamp: new Date().toISOString(),
    })}\n`,
  )
  await waitFor(
    () => world.home.shownLogHolds('dying', id),
    10_000,
    'the channel to see the event in context',
  )
  process.kill(first.pid as number, 'SIGKILL')
  await waitFor(() => !alive(first.pid as number), 10_000, 'the first hub to die')

  // The channel starts a hub; it sends the event again, which the transcript already shows.
  await waitFor(
    () => {
      try {
        const pid = world.home.hubPid()
        return pid !== null && pid !== first.pid
      } catch {
        return false // hub.json being written
      }
    },
    20_000,
    'a hub started by the channel',
  )
  await world.home.waitForHub()
  await waitFor(async () => (await world.home.pending('dying')) === 0, 20_000, 'the event acknowledged')
  let last: ReceiptView[] = []
  await waitFor(
    async () => {
      last = await deliveries(id)
      return last[0]?.state === 'in_context'
    },
    10_000,
    'the in_context receipt',
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(last)}`)
  })
  expect(last[0]).toMatchObject({ subscriber: 'dying', state: 'in_context' })
  expect(last[0]?.in_context).not.toBeNull()
  // Claude was shown it once: the channel did not write it again.
  expect(c.events.map((e) => e.meta?.event_id)).toEqual([id])
})
