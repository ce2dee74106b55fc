// `switchboard events list` as an operator reads it: the stored events, newest first, with each
// subscriber's state, filtered by source, topic, session and state, paged, and as JSON; and what it
// says when no hub runs.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventRow } from '../src/core/api/rows.js'
import { ChannelClient } from './helpers/channel-client.js'
import { postHook } from './helpers/claude-hook.js'
import { CLI, runCli, TestHome, waitFor } from './helpers/home.js'
import {
  appendLines,
  enqueueLine,
  hookContextLine,
  hookSuccessLine,
  type TranscriptSession,
  transcriptPath,
} from './helpers/transcript-lines.js'

let home: TestHome
let hub: ChildProcess
let project: string
let claudeConfig: string
const opened: { close(): unknown }[] = []
const SESSION = '5f0c1a2e-0000-4000-8000-0000000000d1'

beforeEach(async () => {
  home = await TestHome.create()
  project = realpathSync(mkdtempSync(join(tmpdir(), 'listed-project-')))
  // Its sessions take these topics, whatever project an event is about.
  writeFileSync(join(project, '.switchboard.json'), JSON.stringify({ topics: ['ci', 'orders'] }))
  claudeConfig = realpathSync(mkdtempSync(join(tmpdir(), 'claude-config-')))
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  hub?.kill()
  await home.cleanup()
  rmSync(project, { recursive: true, force: true })
  rmSync(claudeConfig, { recursive: true, force: true })
})

async function list(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return runCli(['events', 'list', ...args], home.env)
}

/** The event ids a listing shows, in its order (its header left out). */
async function ids(...args: string[]): Promise<string[]> {
  const lines = (await list(...args)).stdout.trim().split('\n')
  expect(lines[0]).toBe('ID\tTIME\tSOURCE\tTOPIC\tDELIVERIES')
  return lines.slice(1).map((l) => l.split('\t')[0] as string)
}

/** Waits until the hub says `subscriber`'s delivery of the event is in `state`. */
async function stateOf(id: string, subscriber: string, state: string): Promise<void> {
  await waitFor(
    async () =>
      (await home.api('event', { params: { id } })).deliveries.some(
        (d) => d.subscriber === subscriber && d.state === state,
      ),
    15_000,
    `${subscriber}'s delivery of ${id} ${state}`,
  )
}

async function webhook(source: string, secret: string, body: string): Promise<string> {
  const res = await fetch(`${home.url}/hooks/${source}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { id: string }).id
}

it('lists events newest first with each subscriber’s state, by source, topic, session and state, paged and as JSON', {
  timeout: 120_000,
}, async () => {
  Object.assign(home.extraEnv, {
    CLAUDE_CONFIG_DIR: claudeConfig,
    SWITCHBOARD_CONFIRM_MS: '3000',
    SWITCHBOARD_CONFIRM_TRIES: '1',
  })
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  const ci = await home.addSource('ci')
  const shop = await home
    .cli('source', 'add', 'shop', '--topic', 'orders')
    .then((out) => /secret: (\S+)/.exec(out)?.[1] ?? '')
  const builds = await ChannelClient.start(home, ['--name', 'builds', '--topics', 'ci'])
  opened.push(builds)

  // Written to the channel (acknowledged: a test client proves no more), and one nobody wants.
  const built = await webhook('ci', ci, 'build 7 failed')
  await builds.waitForEvents(1)
  await waitFor(async () => (await home.pending('builds')) === 0, 10_000, 'the ack')
  const order = await webhook('shop', shop, 'order 12 paid')

  const all = (await list()).stdout.trim().split('\n')
  expect(all).toEqual([
    'ID\tTIME\tSOURCE\tTOPIC\tDELIVERIES',
    expect.stringMatching(new RegExp(`^${order}\\t\\d{4}-\\d\\d-\\d\\dT\\S+Z\\tshop\\torders\\tparked$`)),
    expect.stringMatching(new RegExp(`^${built}\\t\\S+\\tci\\tci\\tbuilds=written$`)),
  ])
  expect(await ids('--source', 'shop')).toEqual([order])
  expect(await ids('--topic', 'ci')).toEqual([built])
  expect(await ids('--session', 'builds')).toEqual([built])
  expect(await ids('--state', 'parked')).toEqual([order])
  expect(await ids('--state', 'written')).toEqual([built])

  // A session at a terminal takes what was parked with its first hook, and events from now on.
  const session: TranscriptSession = { session: SESSION, cwd: project, configDir: claudeConfig }
  const name = basename(project)
  const hookInput = (event: string, extra: Record<string, unknown> = {}) => ({
    session_id: SESSION,
    transcript_path: transcriptPath(session),
    cwd: project,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  })
  await postHook(home, 'SessionStart', hookInput('SessionStart', { source: 'startup' }))
  appendLines(transcriptPath(session), enqueueLine(session, 'go'))
  const answer = await postHook(home, 'UserPromptSubmit', hookInput('UserPromptSubmit', { prompt: 'go' }))
  const text = (answer.json.hookSpecificOutput as { additionalContext: string }).additionalContext
  expect(text).toContain(order)
  appendLines(
    transcriptPath(session),
    hookContextLine(session, { name: 'UserPromptSubmit', event: 'UserPromptSubmit' }, text),
  )
  await stateOf(order, name, 'in_context')
  expect(await ids('--state', 'parked')).toEqual([])

  // The channel goes: what comes now is stored for it; the session's next hook takes it, and its
  // turn ends without it.
  await builds.close()
  opened.splice(opened.indexOf(builds), 1)
  const waiting = await webhook('ci', ci, 'build 8 failed')
  const next = await postHook(home, 'UserPromptSubmit', hookInput('UserPromptSubmit', { prompt: 'and?' }))
  expect(JSON.stringify(next.json)).toContain(waiting)
  appendLines(transcriptPath(session), hookSuccessLine(session, { name: 'Stop', event: 'Stop' }, '{}'))
  await stateOf(waiting, name, 'unconfirmed')

  expect(await ids('--session', name)).toEqual([waiting, order])
  expect(await ids('--session', name, '--state', 'in_context')).toEqual([order])
  expect(await ids('--state', 'stored')).toEqual([waiting])
  expect(await ids('--session', 'builds', '--state', 'stored')).toEqual([waiting])
  expect(await ids('--session', name, '--state', 'stored')).toEqual([])
  expect((await list('--state', 'unconfirmed')).stdout).toContain(
    `\tci\tci\tbuilds=stored ${name}=unconfirmed\n`,
  )

  // Paged: the newest first, then the ones before the last shown, as the hint on stderr says.
  const first = await list('--limit', '2')
  expect(
    first.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[0]),
  ).toEqual([waiting, order])
  expect(first.stderr).toContain(`--before ${order}`)
  expect(await ids('--limit', '2', '--before', order)).toEqual([built])

  const json = JSON.parse((await list('--topic', 'orders', '--json')).stdout) as { events: EventRow[] }
  expect(json.events).toEqual([
    expect.objectContaining({
      id: order,
      source: 'shop',
      topic: 'orders',
      content: 'order 12 paid',
      deliveries: [expect.objectContaining({ subscriber: name, state: 'in_context', tries: 1 })],
    }),
  ])

  const wrong = await runCli(['events', 'list', '--state', 'lost'], home.env).catch(
    (e: { stderr: string }) => e,
  )
  expect(wrong.stderr.trim()).toBe(
    'switchboard: --state "lost": must be one of stored, written, queued, in_context, unconfirmed, parked',
  )
})

it('says how to start a hub when none runs', async () => {
  const none = await runCli(['events', 'list'], home.env).catch((e: { stderr: string; code: number }) => e)
  expect(none.stderr.trim()).toBe(
    `switchboard: no hub of ${home.dir} is running (switchboard serve starts one)`,
  )
})
