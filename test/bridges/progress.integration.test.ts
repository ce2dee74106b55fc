// `/progress` on each platform through its real client library against its fake: an operator chooses
// `normal` in their DM, a session at a terminal makes many tool calls (its Claude Code hooks), and the
// phone shows one message edited in place, never more often than the platform allows, with no secret
// of a tool's input or of the hub in it; the level is still there after the hub restarts.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS, type BridgePlatform } from '../../src/core/bridges.js'
import { EDIT_LIMITS } from '../../src/hub/bridges/progress-pace.js'
import { type FakePlatform, mostInWindow } from '../fakes/chat-platform.js'
import {
  botMessages,
  pair,
  person,
  restartHub,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { postHook } from '../helpers/claude-hook.js'
import type { TestHome } from '../helpers/home.js'

const SESSION = '5f0c1a2e-0000-4000-8000-00000000c0de'
const GITHUB_TOKEN = 'ghp_4Fq8ZkL2mN7pR1sT6vW9xY3bC5dE0gH2jK4a'
const TOOLS = 40

describe.each(BRIDGE_PLATFORMS)('%s: progress in a chat', (platform: BridgePlatform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  let project: string
  const olga = person(platform, 2, 'olga')

  beforeEach(async () => {
    project = realpathSync(mkdtempSync(join(tmpdir(), 'progress-shop-')))
    ;({ fake, home, hub } = await startBridgedHub(platform))
  })

  afterEach(async () => {
    await stopBridgedHub({ fake, home, hub })
    rmSync(project, { recursive: true, force: true })
  })

  /** A hook event as the installed hooks send it. */
  async function hook(event: string, extra: Record<string, unknown>): Promise<void> {
    const res = await postHook(home, event, {
      session_id: SESSION,
      transcript_path: '/tmp/t.jsonl',
      cwd: project,
      hook_event_name: event,
      ...extra,
    })
    expect(res.status).toBe(200)
  }

  async function say(dm: string, text: string, answer: RegExp) {
    const before = botMessages(fake, dm).length
    await fake.dm(olga, text)
    return fake.waitFor(
      () =>
        botMessages(fake, dm)
          .slice(before)
          .find((m) => answer.test(m.text)),
      `the answer to ${text}`,
    )
  }

  it('at normal, edits one message within the platform’s limit, and no secret reaches it', {
    timeout: 90_000,
  }, async () => {
    const dm = await pair(home, fake, olga, true)
    await say(dm, '/progress normal', /Progress here now: normal/)
    const botToken = fake.credentials.token
    for (let i = 0; i < TOOLS; i++) {
      const command =
        i === 7
          ? `curl -H "Authorization: token ${GITHUB_TOKEN}" https://api.github.com/user`
          : i === 8
            ? `echo ${botToken} > /tmp/token`
            : `npm test -- shard ${i}`
      await hook('PostToolUse', { tool_name: 'Bash', tool_input: { command }, tool_response: {} })
    }
    await hook('Stop', { stop_hook_active: false, last_assistant_message: 'All shards pass.' })
    const status = await fake.waitFor(
      () => botMessages(fake, dm).find((m) => /^✓ .*turn finished/.test(m.text)),
      'the finished status',
      30_000,
    )
    // One message for the whole turn, every line in it, edited in place only.
    const statuses = botMessages(fake, dm).filter((m) => /^(⏳|✓) /.test(m.text))
    expect(statuses.map((m) => m.messageId)).toEqual([status.messageId])
    expect(status.text).toContain(`${TOOLS} tool calls`)
    expect(status.text).toContain(`$ npm test -- shard ${TOOLS - 1}`)
    const edits = fake.edits.filter((e) => e.messageId === status.messageId)
    expect(edits.length).toBeGreaterThan(0)
    expect(edits.length).toBeLessThan(TOOLS)
    const limit = EDIT_LIMITS[platform]
    expect(
      mostInWindow(
        edits.map((e) => e.at),
        limit.windowMs,
      ),
    ).toBeLessThanOrEqual(limit.max)
    // The secrets were in the tool's input: the phone never saw them.
    const everything = [...fake.sent().map((m) => m.text), ...fake.edits.map((e) => e.text)].join('\n')
    expect(everything).toContain('$ echo ‹redacted›')
    expect(everything).not.toContain(GITHUB_TOKEN)
    expect(everything).not.toContain(botToken)
  })

  it('keeps the chosen level after the hub restarts', { timeout: 90_000 }, async () => {
    const dm = await pair(home, fake, olga, true)
    await say(dm, '/progress minimal', /Progress here now: minimal/)
    hub = await restartHub(home, hub)
    await say(dm, '/progress', /Progress here: minimal/)
    await hook('PostToolUse', { tool_name: 'Read', tool_input: { file_path: `${project}/a.ts` } })
    await hook('Stop', { stop_hook_active: false })
    await fake.waitFor(
      () => botMessages(fake, dm).find((m) => /^✓ .*turn finished · 1 tool call · \d+s$/.test(m.text)),
      'the line saying the turn finished',
    )
  })
})
