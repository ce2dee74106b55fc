// The real Gemini CLI (pinned 0.61.0, headless `gemini -p … --approval-mode yolo`, offline against
// test/fakes/gemini.ts) with the hook `switchboard install gemini --hooks` wrote: a shell command the
// model asks to run becomes a decision naming Gemini CLI beside its project, answered with
// `switchboard answer` (allowed: it ran; denied: the model was given the reason; through curl down
// the socket or `switchboard hook`); with no hub the hook says `ask`, and Gemini puts up its own
// dialog, on which a headless run waits; `--remove` (user or project) leaves settings.json as it was.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { FakeGemini, lastToolResponse, shellThenDone } from '../fakes/gemini.js'
import { AgentHooks } from '../helpers/agent-hooks.js'
import { eventsOf, GeminiHome } from '../helpers/gemini.js'
import { runCli, TestHome, waitFor } from '../helpers/home.js'

let fake: FakeGemini
let home: TestHome
let gemini: GeminiHome
let hooks: AgentHooks
let env: Record<string, string>

beforeEach(async () => {
  fake = await new FakeGemini().start()
  fake.respond(shellThenDone)
  home = await TestHome.create()
  gemini = new GeminiHome(fake.baseUrl)
  env = gemini.env({ SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) })
  hooks = new AgentHooks('gemini', home, env, 'the Gemini tool call')
})

afterEach(async () => {
  gemini.cleanup()
  await hooks.stopHub()
  await fake.close()
  await home.cleanup()
})

/** What the model was last given back for a tool, once the turn ended. */
function lastToolResponseSeen(): string {
  return lastToolResponse(fake.turns.at(-1) as never) ?? ''
}

it('answers a Gemini shell command from switchboard answer: allowed, it ran; denied, the model was told why', {
  timeout: 180_000,
}, async () => {
  await hooks.startHub()
  expect(await hooks.install()).toMatch(/--approval-mode yolo/)

  const allowed = join(gemini.cwd, 'allowed-by-switchboard')
  const first = gemini.run(`RUN:touch ${allowed} && echo made-it`, env)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({
    agent: 'gemini',
    source: 'hook',
    tool_name: 'run_shell_command',
    input: { command: `touch ${allowed} && echo made-it` },
    project: basename(gemini.cwd),
    cwd: gemini.cwd,
  })
  // Every surface names the agent: here `switchboard decisions`, which people read.
  expect((await runCli(['decisions'], env)).stdout).toMatch(
    /\(Gemini CLI\)\tpermission\trun_shell_command\t.*touch /,
  )
  // Nothing ran while the hook waited.
  expect(existsSync(allowed)).toBe(false)
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)
  expect(await first.exited).toBe(0)
  expect(existsSync(allowed)).toBe(true)
  expect(eventsOf(first, 'tool_result')).toEqual([expect.objectContaining({ status: 'success' })])
  expect(lastToolResponseSeen()).toContain('made-it')

  const denied = join(gemini.cwd, 'denied-by-switchboard')
  const second = gemini.run(`RUN:touch ${denied}`, env)
  const again = await hooks.openDecision(1)
  expect(again.code).not.toBe(asked.code)
  await runCli(['answer', again.code, 'no', '--message', 'not on a Friday'], env)
  expect(await second.exited).toBe(0)
  expect(existsSync(denied)).toBe(false)
  // Gemini's own record of the call, and what the model was given: the reason, from the hub.
  expect(eventsOf(second, 'tool_result')).toEqual([
    expect.objectContaining({ status: 'error', output: expect.stringContaining('not on a Friday') }),
  ])
  expect(lastToolResponseSeen()).toContain('not on a Friday')
})

it('answers through `switchboard hook BeforeTool --agent gemini` too (install --command)', {
  timeout: 120_000,
}, async () => {
  await hooks.startHub()
  await hooks.install('--command')
  expect(gemini.settings()).toContain('"command": "switchboard hook BeforeTool --agent gemini"')
  const made = join(gemini.cwd, 'allowed-through-the-cli')
  const turn = gemini.run(`RUN:touch ${made}`, env)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({ agent: 'gemini', tool_name: 'run_shell_command' })
  await runCli(['answer', asked.code, 'yes'], env)
  expect(await turn.exited).toBe(0)
  expect(existsSync(made)).toBe(true)
})

it('hands the call back to Gemini when no hub runs: the hook says ask, and Gemini puts up its own dialog, which a headless run waits on', {
  timeout: 120_000,
}, async () => {
  await hooks.install()
  // A hook of the person's own that hears Gemini's notifications: one says its dialog is up.
  const notes = join(gemini.home, 'notifications.jsonl')
  const settings = JSON.parse(gemini.settings())
  settings.hooks.Notification = [
    { hooks: [{ type: 'command', name: 'notes', command: `cat >> '${notes}'; echo >> '${notes}'` }] },
  ]
  writeFileSync(gemini.settingsFile, JSON.stringify(settings, null, 2))
  const made = join(gemini.cwd, 'never-made')
  const turn = gemini.run(`RUN:touch ${made}`, env)
  await waitFor(
    () => existsSync(notes) && readFileSync(notes, 'utf8').includes('ToolPermission'),
    60_000,
    'Gemini’s own dialog',
  )
  expect(JSON.parse(readFileSync(notes, 'utf8').trim().split('\n')[0] as string)).toMatchObject({
    notification_type: 'ToolPermission',
    details: { type: 'exec', command: `touch ${made}` },
  })
  // What a person running Gemini headless sees: the call, and then nothing, as Gemini waits on a
  // dialog it cannot show; the command has not run. (At a terminal, the dialog is on screen.)
  expect(eventsOf(turn, 'tool_use')).toEqual([expect.objectContaining({ tool_name: 'run_shell_command' })])
  expect(eventsOf(turn, 'tool_result')).toEqual([])
  expect(existsSync(made)).toBe(false)
  expect(fake.turns).toHaveLength(1)
})

it('takes the hook out with --remove and leaves settings.json as it was after Gemini ran with it', {
  timeout: 120_000,
}, async () => {
  const before = gemini.settings()
  await hooks.startHub()
  await hooks.install()
  const turn = gemini.run('say hello', env)
  expect(await turn.exited).toBe(0)
  expect((await runCli(['install', 'gemini', '--hooks', '--remove'], env)).stdout).toMatch(/is out of/)
  expect(gemini.settings()).toBe(before)
  expect((await runCli(['install', 'gemini', '--hooks', '--remove'], env)).stdout).toMatch(
    /no Switchboard hook/,
  )
})

it('installs into a project’s .gemini/settings.json, which Gemini runs there, and takes it out again', {
  timeout: 120_000,
}, async () => {
  const projectFile = join(gemini.cwd, '.gemini', 'settings.json')
  mkdirSync(join(gemini.cwd, '.gemini'))
  writeFileSync(projectFile, '{\n  "ui": {\n    "hideTips": true\n  }\n}\n')
  const before = readFileSync(projectFile, 'utf8')
  const userBefore = gemini.settings()
  await hooks.startHub()
  expect(await hooks.install('--project', gemini.cwd)).toMatch(/trusted_hooks\.json/)
  expect(gemini.settings()).toBe(userBefore)
  const made = join(gemini.cwd, 'allowed-in-the-project')
  const turn = gemini.run(`RUN:touch ${made}`, env)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({ agent: 'gemini', cwd: gemini.cwd })
  await runCli(['answer', asked.code, 'yes'], env)
  expect(await turn.exited).toBe(0)
  expect(existsSync(made)).toBe(true)
  // Gemini warned once of the project's new hook, and lists it as seen.
  expect(turn.stderr).toContain('project-level hooks')
  const seen = JSON.parse(readFileSync(join(gemini.home, '.gemini', 'trusted_hooks.json'), 'utf8'))
  expect(seen[gemini.cwd]).toEqual([expect.stringMatching(/^switchboard:/)])
  await runCli(['install', 'gemini', '--hooks', '--remove', '--project', gemini.cwd], env)
  expect(readFileSync(projectFile, 'utf8')).toBe(before)
})
