// The real Codex CLI (pinned 0.171.0, `codex app-server`, offline against test/fakes/openai.ts) with
// the hook `switchboard install codex --hooks` wrote and trusted: a command the model asks to run
// outside the sandbox becomes a decision naming Codex beside its project, answered with
// `switchboard answer` (allowed: it ran; denied: the model was given the message; through curl down
// the socket or `switchboard hook`) or from Telegram's fake; with no hub Codex asks its own client, as
// Claude Code's dialogs fall to the terminal; `--remove` (user or project) leaves the config as it was.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parse } from 'smol-toml'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { FakeOpenAI, lastToolOutput, shellThenDone } from '../fakes/openai.js'
import { AgentHooks } from '../helpers/agent-hooks.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { CodexHome } from '../helpers/codex.js'
import { runCli, TestHome } from '../helpers/home.js'

let fake: FakeOpenAI
let home: TestHome
let codex: CodexHome
let hooks: AgentHooks
let env: Record<string, string>

beforeEach(async () => {
  fake = await new FakeOpenAI().start()
  fake.respond(shellThenDone)
  home = await TestHome.create()
  codex = new CodexHome(fake.baseUrl)
  env = codex.env({ SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) })
  hooks = new AgentHooks('codex', home, env, 'the Codex prompt')
})

afterEach(async () => {
  codex.cleanup()
  await hooks.stopHub()
  await fake.close()
  await home.cleanup()
})

it('answers a Codex command prompt from switchboard answer: allowed, the command ran; denied, the model was told why', {
  timeout: 180_000,
}, async () => {
  await hooks.startHub()
  expect(await hooks.install()).toMatch(/Codex trusts it/)
  const app = await codex.appServer(env)

  const allowed = join(codex.cwd, 'allowed-by-switchboard')
  const first = await app.startTurn(codex.cwd, `RUN:touch ${allowed} && echo made-it`)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({
    agent: 'codex',
    source: 'hook',
    tool_name: 'Bash',
    input: { command: `touch ${allowed} && echo made-it` },
    project: basename(codex.cwd),
    cwd: codex.cwd,
  })
  // Every surface names the agent: here `switchboard decisions`, which people read.
  expect((await runCli(['decisions'], env)).stdout).toMatch(/\(Codex\)\tpermission\tBash\t\$ touch /)
  expect((await runCli(['answer', asked.code, 'yes'], env)).stdout).toMatch(/^allowed /)
  expect(await app.turnCompleted(first.turnId)).toBe('completed')
  expect(existsSync(allowed)).toBe(true)
  expect(lastToolOutput(fake.requests.at(-1) as never)).toContain('made-it')

  const denied = join(codex.cwd, 'denied-by-switchboard')
  const second = await app.startTurn(codex.cwd, `RUN:touch ${denied}`)
  const again = await hooks.openDecision(1)
  expect(again.code).not.toBe(asked.code)
  await runCli(['answer', again.code, 'no', '--message', 'not on a Friday'], env)
  expect(await app.turnCompleted(second.turnId)).toBe('completed')
  expect(existsSync(denied)).toBe(false)
  expect(lastToolOutput(fake.requests.at(-1) as never)).toContain('not on a Friday')
  // The hub answered both: Codex never asked its own client.
  expect(app.serverRequests.map((r) => r.method)).toEqual([])
})

it('answers through `switchboard hook PermissionRequest --agent codex` too (install --command)', {
  timeout: 120_000,
}, async () => {
  await hooks.startHub()
  await hooks.install('--command')
  expect(codex.config()).toContain('command = "switchboard hook PermissionRequest --agent codex"')
  const app = await codex.appServer(env)
  const made = join(codex.cwd, 'allowed-through-the-cli')
  const { turnId } = await app.startTurn(codex.cwd, `RUN:touch ${made}`)
  const asked = await hooks.openDecision(0)
  expect(asked.request).toMatchObject({ agent: 'codex', tool_name: 'Bash' })
  await runCli(['answer', asked.code, 'yes'], env)
  expect(await app.turnCompleted(turnId)).toBe('completed')
  expect(existsSync(made)).toBe(true)
  expect(app.serverRequests).toEqual([])
})

it('puts a Codex command prompt to Telegram, naming Codex, and the Allow button lets the command run', {
  timeout: 180_000,
}, async () => {
  const telegram = await FAKES.telegram()
  try {
    await home.cli(...bridgeAddArgs(telegram))
    await hooks.startHub()
    await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
    const olga = person('telegram', 2, 'olga')
    const chat = await pair(home, telegram, olga, true)
    await hooks.install()
    const app = await codex.appServer(env)
    const made = join(codex.cwd, 'allowed-from-telegram')
    const { turnId } = await app.startTurn(codex.cwd, `RUN:touch ${made}`)
    const prompt = await telegram.waitFor(
      () => botMessages(telegram, chat).find((m) => m.text.includes('Permission: Bash')),
      'the Codex prompt on the phone',
      60_000,
    )
    expect(prompt.text).toContain('(Codex)')
    expect(prompt.text).toContain(`touch ${made}`)
    const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
    await telegram.press(olga, chat, prompt.messageId, allow?.data as string)
    expect(await app.turnCompleted(turnId)).toBe('completed')
    expect(existsSync(made)).toBe(true)
    expect(app.serverRequests).toEqual([])
    await telegram.waitFor(
      () =>
        telegram.sent().find((m) => m.messageId === prompt.messageId && m.text.includes('Allowed by olga')),
      'the prompt marked allowed',
    )
  } finally {
    await telegram.close()
  }
})

it('leaves the prompt to Codex when no hub runs: its own approval request comes, and answering it runs the command', {
  timeout: 120_000,
}, async () => {
  await hooks.install()
  const app = await codex.appServer(env)
  const made = join(codex.cwd, 'allowed-in-codex')
  const { turnId } = await app.startTurn(codex.cwd, `RUN:touch ${made}`)
  const approval = await app.until('an approval request', () =>
    app.serverRequests.find((r) => r.method === 'item/commandExecution/requestApproval'),
  )
  // The hook ran (trusted) and said nothing, which is what hands the prompt back to Codex.
  expect(app.all('hook/completed').length).toBeGreaterThan(0)
  expect(String(approval.params.command)).toContain(`touch ${made}`)
  approval.reply({ decision: 'accept' })
  expect(await app.turnCompleted(turnId)).toBe('completed')
  expect(existsSync(made)).toBe(true)
})

it('takes the hook and its trust out with --remove and leaves the rest of config.toml as it was', {
  timeout: 60_000,
}, async () => {
  const before = codex.config()
  await hooks.install()
  const installed = parse(codex.config()) as { hooks?: { state?: Record<string, unknown> } }
  expect(Object.keys(installed.hooks?.state ?? {})).toEqual([`${codex.configFile}:permission_request:0:0`])
  // Codex itself says it trusts the hook.
  const app = await codex.appServer(env)
  const listed = await app.request('hooks/list', { cwds: [codex.cwd] })
  expect(JSON.stringify(listed)).toContain('"trustStatus":"trusted"')
  expect((await runCli(['install', 'codex', '--hooks', '--remove'], env)).stdout).toMatch(/is out of/)
  expect(codex.config()).toBe(before)
  expect(readFileSync(codex.configFile, 'utf8')).not.toContain('switchboard')
})

it('installs into a trusted project’s .codex/config.toml, trusted from the user’s config, and takes both out', {
  timeout: 60_000,
}, async () => {
  // Codex reads a project's config only in a project the person trusts.
  writeFileSync(codex.configFile, `${codex.config()}\n[projects."${codex.cwd}"]\ntrust_level = "trusted"\n`)
  const before = codex.config()
  const projectFile = join(codex.cwd, '.codex', 'config.toml')
  expect(await hooks.install('--project', codex.cwd)).toMatch(/Codex trusts it/)
  expect(readFileSync(projectFile, 'utf8')).toContain('x-switchboard-agent: codex')
  const app = await codex.appServer(env)
  const listed = (await app.request('hooks/list', { cwds: [codex.cwd] })) as {
    data: { hooks: { key: string; trustStatus: string }[] }[]
  }
  expect(listed.data.flatMap((d) => d.hooks)).toEqual([
    expect.objectContaining({ key: `${projectFile}:permission_request:0:0`, trustStatus: 'trusted' }),
  ])
  await runCli(['install', 'codex', '--hooks', '--remove', '--project', codex.cwd], env)
  expect(codex.config()).toBe(before)
  expect(readFileSync(projectFile, 'utf8')).not.toContain('switchboard')
})
