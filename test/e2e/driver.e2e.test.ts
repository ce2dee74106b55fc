// Driving the real Claude Code CLI over stream-json and the control protocol (src/claude/).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { CliLine, PermissionAnswer } from '../../src/claude/messages.js'
import { ClaudeProcess } from '../../src/claude/process.js'
import type { ClaudeOptions } from '../../src/core/claude-options.js'
import { FakeAnthropic, latestTurn, textOf, toolResults } from '../fakes/anthropic.js'
import { CLAUDE_BIN, ClaudeHome } from '../helpers/claude.js'
import { alive, waitFor } from '../helpers/home.js'

let fake: FakeAnthropic
let claude: ClaudeHome
const processes: ClaudeProcess[] = []

beforeEach(async () => {
  fake = await new FakeAnthropic().start()
  claude = new ClaudeHome()
})

afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop(2_000)
  await fake.close()
  claude.cleanup()
})

function start(
  options: Partial<ClaudeOptions> = {},
  canUseTool: (tool: string, input: Record<string, unknown>) => PermissionAnswer = () => ({
    behavior: 'deny',
    message: 'no',
  }),
) {
  const lines: CliLine[] = []
  const p = new ClaudeProcess(
    { cwd: claude.cwd, ...options },
    { canUseTool: async (req) => canUseTool(req.tool_name, req.input) },
    { bin: CLAUDE_BIN, env: claude.env(fake.url) },
  )
  p.on('line', (l) => lines.push(l))
  processes.push(p)
  const results = () => lines.filter((l) => l.type === 'result')
  const waitResults = (n: number) =>
    waitFor(() => results().length >= n, 60_000, `${n} results`).then(results)
  return { p, lines, results, waitResults }
}

it('answers a prompt with a result, and keeps the process for the next turn', async () => {
  fake.respond((r) => ({ text: latestTurn(r).includes('again') ? 'second answer' : 'first answer' }))
  const { p, waitResults } = start()
  await p.sendUser('hello')
  const [first] = await waitResults(1)
  expect(first).toMatchObject({ subtype: 'success', result: 'first answer' })
  await p.sendUser('again')
  expect((await waitResults(2))[1]).toMatchObject({ result: 'second answer' })
  expect(p.isAlive).toBe(true)
})

it('runs a Bash call with the input the host edited when allowing it', async () => {
  const asked = join(claude.cwd, 'asked-for')
  const edited = join(claude.cwd, 'edited-to')
  fake.respond((r) =>
    toolResults(r).length
      ? { text: 'done' }
      : { tool: 'Bash', input: { command: `touch ${asked}`, description: 'touch' } },
  )
  const seen: string[] = []
  const { p, waitResults } = start({}, (tool, input) => {
    seen.push(`${tool}:${input.command}`)
    return { behavior: 'allow', updatedInput: { ...input, command: `touch ${edited}` } }
  })
  await p.sendUser('make the file')
  await waitResults(1)
  expect(seen).toEqual([`Bash:touch ${asked}`])
  expect(existsSync(edited)).toBe(true)
  expect(existsSync(asked)).toBe(false)
})

it('tells the model when the host denies a tool', async () => {
  const marker = join(claude.cwd, 'never')
  fake.respond((r) =>
    toolResults(r).length ? { text: 'understood' } : { tool: 'Bash', input: { command: `touch ${marker}` } },
  )
  const { p, waitResults } = start({}, () => ({ behavior: 'deny', message: 'not on a Friday' }))
  await p.sendUser('make the file')
  await waitResults(1)
  const result = fake.requests.flatMap(toolResults)[0]
  expect(result?.is_error).toBe(true)
  expect(textOf(result?.content)).toContain('not on a Friday')
  expect(existsSync(marker)).toBe(false)
})

it('interrupts a streaming turn through the control protocol and answers the next message', async () => {
  fake.respond((r) =>
    latestTurn(r).includes('something long')
      ? { slowText: 'word '.repeat(400), delayMs: 20 }
      : { text: 'short answer' },
  )
  const { p, lines, waitResults } = start({ includePartialMessages: true })
  await p.sendUser('tell me something long')
  await waitFor(() => lines.some((l) => l.type === 'stream_event'), 30_000, 'streaming to begin')
  await p.interrupt()
  const [interrupted] = await waitResults(1)
  expect(interrupted).toMatchObject({ subtype: 'error_during_execution' })
  expect(p.isAlive).toBe(true)
  await p.sendUser('now something short')
  expect((await waitResults(2))[1]).toMatchObject({ subtype: 'success', result: 'short answer' })
})

it('changes model and permission mode at run time', async () => {
  fake.respond(() => ({ text: 'ok' }))
  const { p, waitResults } = start()
  await p.sendUser('first')
  await waitResults(1)
  await p.setModel('claude-test-model-2')
  expect(await p.setPermissionMode('acceptEdits')).toMatchObject({ mode: 'acceptEdits' })
  await p.sendUser('second')
  await waitResults(2)
  expect(fake.requests.at(-1)?.model).toBe('claude-test-model-2')
})

it('resumes a session after its process exited, keeping the session id', async () => {
  fake.respond((r) => ({ text: `turns so far: ${r.messages.filter((m) => m.role === 'user').length}` }))
  const first = start()
  await first.p.sendUser('remember the number 42')
  const [r1] = await first.waitResults(1)
  await first.p.stop()
  const sessionId = r1?.session_id as string
  const second = start({ resume: sessionId })
  await second.p.sendUser('what was the number?')
  const [r2] = await second.waitResults(1)
  expect(r2?.session_id).toBe(sessionId)
  expect(textOf(fake.requests.at(-1)?.messages)).toContain('remember the number 42')
})

it('fails every waiting control request at once when the CLI is killed mid-turn', async () => {
  fake.respond(() => ({ slowText: 'word '.repeat(400), delayMs: 20 }))
  const { p, lines } = start({ includePartialMessages: true })
  await p.sendUser('go')
  await waitFor(() => lines.some((l) => l.type === 'stream_event'), 30_000, 'streaming')
  const pending = p.control.getSettings().catch((e: Error) => e)
  const pid = p.pid ?? 0
  p.kill('SIGKILL')
  const { signal } = await p.exited
  expect(signal).toBe('SIGKILL')
  expect(await pending).toBeInstanceOf(Error)
  expect(alive(pid)).toBe(false)
})

it('gets an answer to every control subtype it offers, from the real CLI', async () => {
  fake.respond(() => ({ text: 'ok' }))
  const { p, waitResults } = start()
  const init = await p.control.initialize({})
  expect(init).toMatchObject({ commands: expect.any(Array) })
  await p.sendUser('hello')
  await waitResults(1)
  const c = p.control
  const calls: [string, () => Promise<Record<string, unknown>>][] = [
    ['set_max_thinking_tokens', () => c.setMaxThinkingTokens(1024)],
    ['mcp_status', () => c.mcpStatus()],
    ['get_settings', () => c.getSettings()],
    ['apply_flag_settings', () => c.applyFlagSettings({})],
    ['mcp_set_servers', () => c.mcpSetServers({})],
    ['mcp_reconnect', () => c.mcpReconnect('no-such-server')],
    ['mcp_toggle', () => c.mcpToggle('no-such-server', false)],
    ['mcp_message', () => c.mcpMessage('no-such-server', { jsonrpc: '2.0', method: 'ping', id: 1 })],
    ['rewind_files', () => c.rewindFiles('no-such-message', true)],
    ['stop_task', () => c.stopTask('no-such-task')],
    ['cancel_async_message', () => c.cancelAsyncMessage('no-such-uuid')],
  ]
  const outcomes: Record<string, string> = {}
  for (const [name, call] of calls) {
    outcomes[name] = await call().then(
      () => 'success',
      (err: Error) => err.name,
    )
  }
  // Every request is answered (success, or a typed error from the CLI), none times out.
  for (const [name, outcome] of Object.entries(outcomes))
    expect([name, outcome]).not.toEqual([name, 'ControlTimeoutError'])
  expect(outcomes).toMatchObject({
    mcp_status: 'success',
    get_settings: 'success',
    set_max_thinking_tokens: 'success',
  })
  await p.control.endSession('done')
  await p.exited
})
