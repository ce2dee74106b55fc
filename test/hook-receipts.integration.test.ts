// Receipts on the hooks rung (issue 33): an event a Claude Code hook handed over is recorded for the
// session's subscriber, written when the hook's answer leaves and in_context once Claude Code's
// transcript shows it, as GET /api/events/:id and `switchboard events show` read them. Real hook
// inputs go down a spawned hub's socket; the test writes the session's transcript as Claude Code
// does (test/helpers/transcript-lines.ts), and the hub reads it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ReceiptView } from '../src/core/receipts.js'
import { postHook } from './helpers/claude-hook.js'
import { CLI, runCli, TestHome, waitFor } from './helpers/home.js'
import { SseReader } from './helpers/sse.js'
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
let operator: SseReader
let project: string
let claudeConfig: string
let session: TranscriptSession
const opened: { close(): unknown }[] = []

const SESSION = '5f0c1a2e-0000-4000-8000-0000000000c1'
const PROMPT_HOOK = { name: 'UserPromptSubmit', event: 'UserPromptSubmit' }

beforeEach(async () => {
  home = await TestHome.create()
  project = realpathSync(mkdtempSync(join(tmpdir(), 'hooked-project-')))
  // Its sessions take the ci topic, whatever project an event is about.
  writeFileSync(join(project, '.switchboard.json'), JSON.stringify({ topics: ['ci'] }))
  claudeConfig = realpathSync(mkdtempSync(join(tmpdir(), 'claude-config-')))
  session = { session: SESSION, cwd: project, configDir: claudeConfig }
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  hub?.kill()
  await home.cleanup()
  rmSync(project, { recursive: true, force: true })
  rmSync(claudeConfig, { recursive: true, force: true })
})

/** A hub reading the test's Claude Code config folder, with these deadlines, an operator following it. */
async function start(confirmMs: number, confirmTries: number): Promise<void> {
  Object.assign(home.extraEnv, {
    CLAUDE_CONFIG_DIR: claudeConfig,
    SWITCHBOARD_CONFIRM_MS: String(confirmMs),
    SWITCHBOARD_CONFIRM_TRIES: String(confirmTries),
  })
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  operator = await SseReader.open(home.url, await home.addSender('phone', true))
  opened.push(operator)
}

function input(event: string, extra: Record<string, unknown> = {}, transcript = transcriptPath(session)) {
  return {
    session_id: SESSION,
    transcript_path: transcript,
    cwd: project,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  }
}

async function webhook(secret: string, body: string): Promise<string> {
  const res = await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { id: string }).id
}

/** The additionalContext a hook answered with ('' when none). */
function contextOf(answer: { json: Record<string, unknown> }): string {
  const output = answer.json.hookSpecificOutput as { additionalContext?: string } | undefined
  return output?.additionalContext ?? ''
}

async function deliveries(id: string): Promise<ReceiptView[]> {
  return (await home.api('event', { params: { id } })).deliveries
}

async function waitForState(id: string, state: ReceiptView['state'], ms: number): Promise<ReceiptView> {
  let last: ReceiptView[] = []
  await waitFor(
    async () => {
      last = await deliveries(id)
      return last.some((d) => d.state === state)
    },
    ms,
    `event ${id} ${state} (last: ${JSON.stringify(last)})`,
  )
  return last.find((d) => d.state === state) as ReceiptView
}

/** A prompt typed in the session: its UserPromptSubmit hook's answer. */
function prompt(text: string, transcript?: string) {
  return postHook(
    home,
    'UserPromptSubmit',
    input('UserPromptSubmit', { prompt: text, source: 'user' }, transcript),
  )
}

it('records an event a hook handed over as written, then in_context once the transcript shows it, for UserPromptSubmit and PostToolUse', async () => {
  await start(2_000, 3)
  const name = basename(project)
  const file = transcriptPath(session)
  appendLines(file, enqueueLine(session, 'fix the build'))
  await postHook(home, 'SessionStart', input('SessionStart', { source: 'startup' }))
  const secret = await home.addSource('ci')
  const first = await webhook(secret, 'the deploy finished')

  const answer = await prompt('fix the build')
  expect(contextOf(answer)).toContain(`event_id="${first}"`)
  expect(await deliveries(first)).toEqual([
    {
      subscriber: name,
      state: 'written',
      stored: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      written: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      in_context: null,
      tries: 1,
      reason: null,
    },
  ])
  expect(await runCli(['events', 'show', first], home.env).then((r) => r.stdout)).toMatch(
    new RegExp(`${name}\\twritten\\tstored ✓ \\S+\\twritten ✓ \\S+\\tin context ·\\ttries 1`),
  )

  // Claude Code puts the hook's text into the conversation.
  const line = hookContextLine(session, PROMPT_HOOK, contextOf(answer))
  appendLines(file, line)
  const confirmed = await waitForState(first, 'in_context', 10_000)
  expect(confirmed).toMatchObject({ subscriber: name, tries: 1, reason: null })
  expect(confirmed.in_context).toBe(JSON.parse(line).timestamp)
  expect(await runCli(['events', 'show', first], home.env).then((r) => r.stdout)).toMatch(
    new RegExp(`${name}\\tin_context\\tstored ✓ \\S+\\twritten ✓ \\S+\\tin context ✓ \\S+\\ttries 1`),
  )

  // One that comes while a tool runs goes with its PostToolUse hook; the hook's own record of its
  // answer (hook_success, which quotes it) is not the conversation: only the context line after it is.
  const second = await webhook(secret, 'the tests pass again')
  const tool = { name: 'PostToolUse:Bash', event: 'PostToolUse', toolUseID: 'toolu_fake1' }
  const afterTool = await postHook(
    home,
    'PostToolUse',
    input('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'npm test', description: 'run the tests' },
      tool_response: { stdout: 'ok', stderr: '', interrupted: false },
      tool_use_id: 'toolu_fake1',
    }),
  )
  expect(contextOf(afterTool)).toContain(`event_id="${second}"`)
  expect((await deliveries(second))[0]).toMatchObject({ state: 'written', tries: 1 })
  appendLines(file, hookSuccessLine(session, tool, JSON.stringify(afterTool.json)))
  appendLines(file, hookContextLine(session, tool, contextOf(afterTool)))
  await waitForState(second, 'in_context', 10_000)
})

it('says unconfirmed, with why, and tells operators when the transcript goes on without the event', async () => {
  // The line after the answer is written within the 3 s this gives.
  await start(1_000, 2)
  const name = basename(project)
  const file = transcriptPath(session)
  appendLines(file, enqueueLine(session, 'go'))
  await postHook(home, 'SessionStart', input('SessionStart', { source: 'startup' }))
  const secret = await home.addSource('ci')
  const id = await webhook(secret, 'release 4.2 is out')
  const answer = await prompt('go')
  expect(contextOf(answer)).toContain(`event_id="${id}"`)
  // The answer never reached the conversation (too late for curl's --max-time, say): the session's
  // turn goes on and ends without it.
  appendLines(file, hookSuccessLine(session, { name: 'Stop', event: 'Stop' }, '{}'))

  const given = await waitForState(id, 'unconfirmed', 10_000)
  expect(given).toMatchObject({ subscriber: name, tries: 1, in_context: null })
  expect(given.reason).toMatch(/transcript went on without it/)
  await waitFor(
    () => operator.messages.some((m) => m.event === 'notice' && JSON.stringify(m.data).includes(id)),
    10_000,
    'a notice to operators',
  )
  const notice = operator.messages.find((m) => m.event === 'notice' && JSON.stringify(m.data).includes(id))
  expect(notice?.data).toMatchObject({ session: name, event: id, reason: given.reason })
  const shown = (await runCli(['events', 'show', id], home.env)).stdout
  expect(shown).toContain(`${name}\tunconfirmed\t`)
  expect(shown).toContain(given.reason as string)
})

it('says unconfirmed when the session keeps no transcript at all', async () => {
  await start(200, 2)
  await postHook(home, 'SessionStart', input('SessionStart', { source: 'startup' }))
  const secret = await home.addSource('ci')
  const id = await webhook(secret, 'nightly build green')
  // Claude Code started with --no-session-persistence names a transcript it never writes.
  expect(contextOf(await prompt('go'))).toContain(`event_id="${id}"`)
  const given = await waitForState(id, 'unconfirmed', 10_000)
  expect(given.reason).toMatch(/transcript .* was not found/)
})

it('reads no transcript a hook names that is a FIFO, or a link under Claude Code’s projects: the events stay unconfirmed', async () => {
  await start(300, 2)
  const secret = await home.addSource('ci')
  await postHook(home, 'SessionStart', input('SessionStart', { source: 'startup' }))
  const folder = join(claudeConfig, 'projects', 'planted')
  mkdirSync(folder, { recursive: true })

  // A FIFO would hold a reader that waits for its writer.
  const fifo = join(folder, 'fifo.jsonl')
  execFileSync('mkfifo', [fifo])
  const viaFifo = await webhook(secret, 'one')
  expect(contextOf(await prompt('a', fifo))).toContain(viaFifo)

  // A link under projects/ to a file elsewhere that does hold the event's context line.
  const target = join(elsewhere(), 'real.jsonl')
  const link = join(folder, 'link.jsonl')
  appendLines(target, enqueueLine(session, 'b'))
  symlinkSync(target, link)
  const viaLink = await webhook(secret, 'two')
  const linked = await prompt('b', link)
  expect(contextOf(linked)).toContain(viaLink)
  appendLines(target, hookContextLine(session, PROMPT_HOOK, contextOf(linked)))

  // The hub answers on, whatever it was pointed at.
  expect((await fetch(`${home.url}/health`)).ok).toBe(true)
  expect((await prompt('c')).status).toBe(200)
  for (const id of [viaFifo, viaLink])
    expect((await waitForState(id, 'unconfirmed', 10_000)).reason).toMatch(/not a regular file/)
})

it.skipIf(process.getuid?.() !== 0)(
  'reads no transcript outside Claude Code’s projects that is not its user’s (needs root, to give a file away)',
  async () => {
    await start(300, 2)
    const secret = await home.addSource('ci')
    await postHook(home, 'SessionStart', input('SessionStart', { source: 'startup' }))
    const foreign = join(elsewhere(), 'foreign.jsonl')
    appendLines(foreign, enqueueLine(session, 'c'))
    chownSync(foreign, 65534, 65534)
    const id = await webhook(secret, 'three')
    const answered = await prompt('c', foreign)
    expect(contextOf(answered)).toContain(id)
    appendLines(foreign, hookContextLine(session, PROMPT_HOOK, contextOf(answered)))
    expect((await waitForState(id, 'unconfirmed', 10_000)).reason).toMatch(
      /neither under .*projects.* nor owned by/,
    )
  },
)

/** A folder outside Claude Code's config, removed after the test. */
function elsewhere(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'elsewhere-')))
  opened.push({ close: () => rmSync(dir, { recursive: true, force: true }) })
  return dir
}
