// The real OpenCode CLI (pinned 1.18.33, `opencode serve`, offline against test/fakes/chat-completions.ts)
// with the plugin `switchboard install opencode` wrote: a shell command the model asks to run becomes a
// decision naming OpenCode beside its project, answered with `switchboard answer` (allowed: it ran;
// denied: the model was given the reason; down the socket or through `switchboard hook`); an answer at
// OpenCode's own dialog first closes the decision; with no hub the plugin answers nothing, and
// OpenCode's own prompt waits for the person at the terminal; `--remove` leaves other plugins.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { recordShows } from '../../src/agents/opencode/record.js'
import { FakeChatCompletions, lastToolOutput } from '../fakes/chat-completions.js'
import { AgentHooks } from '../helpers/agent-hooks.js'
import { runCli, TestHome, waitFor } from '../helpers/home.js'
import { OpenCodeHome, type OpenCodeServer } from '../helpers/opencode.js'

let fake: FakeChatCompletions
let home: TestHome
let opencode: OpenCodeHome
let hooks: AgentHooks
let env: Record<string, string>

beforeEach(async () => {
  fake = await new FakeChatCompletions().start()
  home = await TestHome.create()
  opencode = new OpenCodeHome(fake.baseUrl)
  env = opencode.env({ SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) })
  hooks = new AgentHooks('opencode', home, env, 'the OpenCode permission prompt')
})

afterEach(async () => {
  opencode.cleanup()
  await hooks.stopHub()
  await fake.close()
  await home.cleanup()
})

/** The tool's result the model was given, once OpenCode sent it back (the turn goes on from there). */
async function toolResultSeen(what: string): Promise<string> {
  let output: string | null = null
  await waitFor(
    () => {
      output = fake.turns.map(lastToolOutput).findLast((o) => o !== null) ?? null
      return output?.includes(what) ?? false
    },
    60_000,
    `the model given ${what}`,
  )
  return output ?? ''
}

/** A session of `opencode serve` in the project folder, the plugin loaded as OpenCode starts. */
async function session(): Promise<{ server: OpenCodeServer; id: string }> {
  const server = await opencode.serve(env)
  return { server, id: await server.newSession() }
}

it('answers an OpenCode shell command from switchboard answer: allowed, it ran; denied, the model was told why', {
  timeout: 300_000,
}, async () => {
  await hooks.startHub()
  expect(await hooks.install()).toMatch(
    /the plugin is in .*opencode\/plugin\/switchboard\.js, to the hub's socket/,
  )
  const { server, id } = await session()

  const allowed = join(opencode.cwd, 'allowed-by-switchboard')
  await server.prompt(id, `RUN:touch ${allowed} && echo made-it`)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({
    agent: 'opencode',
    source: 'hook',
    tool_name: 'Bash',
    input: { command: `touch ${allowed} && echo made-it` },
    project: basename(opencode.cwd),
    cwd: opencode.cwd,
  })
  // Every surface names the agent: here `switchboard decisions`, which people read.
  expect((await runCli(['decisions'], env)).stdout).toMatch(/\(OpenCode\)\tpermission\tBash\t.*touch /)
  // Nothing ran while the plugin waited; OpenCode's own prompt is up meanwhile.
  expect(existsSync(allowed)).toBe(false)
  expect(await server.pendingPermissions()).toEqual([expect.objectContaining({ sessionID: id })])
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)
  expect(await toolResultSeen('made-it')).toContain('made-it')
  expect(existsSync(allowed)).toBe(true)
  // OpenCode's own record, read while it runs (src/agents/opencode/record.ts), has the prompt.
  expect(recordShows(opencode.dbFile, id, `RUN:touch ${allowed} && echo made-it`)).toBe(true)

  const denied = join(opencode.cwd, 'denied-by-switchboard')
  await server.prompt(id, `RUN:touch ${denied}`)
  const again = await hooks.openDecision(1)
  expect(again.code).not.toBe(asked.code)
  await runCli(['answer', again.code, 'no', '--message', 'not on a Friday'], env)
  // OpenCode's words for a rejection with feedback, and the person's reason: the model goes on.
  expect(await toolResultSeen('not on a Friday')).toMatch(/rejected permission .* not on a Friday/)
  expect(existsSync(denied)).toBe(false)
  expect(await server.pendingPermissions()).toEqual([])
})

it('answers through `switchboard hook PermissionRequest --agent opencode` too (install --command)', {
  timeout: 240_000,
}, async () => {
  await hooks.startHub()
  expect(await hooks.install('--command')).toMatch(/as `switchboard hook PermissionRequest --agent opencode`/)
  const { server, id } = await session()
  const made = join(opencode.cwd, 'allowed-through-the-cli')
  await server.prompt(id, `RUN:touch ${made} && echo made-it`)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({ agent: 'opencode', tool_name: 'Bash' })
  await runCli(['answer', asked.code, 'yes'], env)
  await toolResultSeen('made-it')
  expect(existsSync(made)).toBe(true)
})

it('closes the decision when the person answers at OpenCode’s own dialog first', {
  timeout: 240_000,
}, async () => {
  await hooks.startHub()
  await hooks.install()
  const { server, id } = await session()
  const made = join(opencode.cwd, 'allowed-at-the-terminal')
  await server.prompt(id, `RUN:touch ${made} && echo made-it`)
  await hooks.openDecision(0)
  const [prompt] = await server.pendingPermissions()
  await server.reply(prompt?.id as string, 'once')
  await toolResultSeen('made-it')
  expect(existsSync(made)).toBe(true)
  await waitFor(
    async () => (await home.api('decisions')).decisions.length === 0,
    30_000,
    'the decision closed',
  )
})

it('leaves the prompt to OpenCode’s own dialog when no hub runs, for the person at the terminal', {
  timeout: 240_000,
}, async () => {
  await hooks.install()
  const { server, id } = await session()
  const made = join(opencode.cwd, 'allowed-at-the-terminal')
  await server.prompt(id, `RUN:touch ${made} && echo made-it`)
  let pending: { id: string }[] = []
  await waitFor(
    async () => {
      pending = await server.pendingPermissions()
      return pending.length === 1
    },
    60_000,
    'OpenCode’s own prompt',
  )
  expect(existsSync(made)).toBe(false)
  // Still OpenCode's to answer: the plugin rejected nothing, and the person allows it there.
  await server.reply(pending[0]?.id as string, 'once')
  await toolResultSeen('made-it')
  expect(existsSync(made)).toBe(true)
  expect(existsSync(join(home.dir, 'hub.json'))).toBe(false)
})

it('takes out only its own plugin with --remove, leaving the person’s', { timeout: 60_000 }, async () => {
  const plugins = join(opencode.configDir, 'plugin')
  mkdirSync(plugins, { recursive: true })
  const theirs = join(plugins, 'notify.js')
  writeFileSync(theirs, 'export const Notify = async () => ({})\n')
  await hooks.install()
  expect(existsSync(join(plugins, 'switchboard.js'))).toBe(true)
  const removed = await runCli(['install', 'opencode', '--remove'], env)
  expect(removed.stdout).toMatch(/^Switchboard's plugin is out: /)
  expect(existsSync(join(plugins, 'switchboard.js'))).toBe(false)
  expect(readFileSync(theirs, 'utf8')).toBe('export const Notify = async () => ({})\n')
})
