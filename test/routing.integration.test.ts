// Many sessions, each its own (issue 33): a hub with the default routing, sessions in two projects
// (git repositories with an origin), a channel's and a terminal's, and events about one project or
// none. What is about a project reaches that project's sessions and no other; what is about no
// project reaches a session that asks for it (a source bound to its project, its .switchboard.json)
// and otherwise waits, visibly, for one; a person may still choose everything.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { fixture, signature } from './fixtures/webhooks/load.js'
import { ChannelClient } from './helpers/channel-client.js'
import { hookInput, postHook } from './helpers/claude-hook.js'
import { CLI, runCli, TestHome, waitFor } from './helpers/home.js'

let home: TestHome
let hub: ChildProcess
let root: string
const opened: { close(): unknown }[] = []

/** A git repository with `origin` at GitHub's owner/name. */
function repository(name: string, origin: string): string {
  const dir = join(root, name)
  mkdirSync(dir)
  execFileSync('git', ['init', '-q', dir])
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', origin])
  return dir
}

beforeEach(async () => {
  home = await TestHome.create()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'projects-')))
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  hub?.kill()
  await home.cleanup()
  rmSync(root, { recursive: true, force: true })
})

/** A hub as a user has it: every session gets what is about its own project. */
async function start(env: Record<string, string> = {}): Promise<void> {
  Object.assign(home.extraEnv, { SWITCHBOARD_ROUTING: 'project', ...env })
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
}

async function channelIn(folder: string, session: string): Promise<ChannelClient> {
  const client = await ChannelClient.start(home, [], { CLAUDE_CODE_SESSION_ID: session }, folder)
  opened.push(client)
  return client
}

/** A GitHub pull_request delivery about `repository` (owner/name), signed with the source's secret. */
async function pullRequest(secret: string, repository: string, number: number): Promise<string> {
  const { json } = fixture('github-pull_request-opened')
  const payload = json as {
    repository: Record<string, unknown>
    pull_request: Record<string, unknown>
    number: number
  }
  payload.repository.full_name = repository
  payload.repository.name = repository.split('/')[1]
  payload.number = number
  payload.pull_request.number = number
  const raw = Buffer.from(JSON.stringify(payload))
  const res = await fetch(`${home.url}/hooks/github`, {
    method: 'POST',
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': `delivery-${repository}-${number}`,
      'x-hub-signature-256': signature(secret, raw),
    },
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { id: string }).id
}

const API = '5f0c1a2e-0000-4000-8000-0000000000a1'
const WEB = '5f0c1a2e-0000-4000-8000-0000000000b1'

it('gives each project’s sessions what is about their project, and waits with what is about a project no session has', async () => {
  await start()
  const api = repository('api', 'https://github.com/acme/api.git')
  const web = repository('web', 'git@github.com:acme/web.git')
  const secret =
    /secret: (\S+)/.exec(await home.cli('source', 'add', 'github', '--preset', 'github'))?.[1] ?? ''
  // api runs the channel; web is a session at a terminal with the hooks only.
  const apiChannel = await channelIn(api, API)
  await postHook(home, 'SessionStart', hookInput('SessionStart', WEB, web, { source: 'startup' }))

  await pullRequest(secret, 'acme/api', 1)
  const [forApi] = await apiChannel.waitForEvents(1)
  expect(forApi?.meta).toMatchObject({ repository: 'acme/api', number: '1' })
  const webPrompt = await postHook(
    home,
    'UserPromptSubmit',
    hookInput('UserPromptSubmit', WEB, web, { prompt: 'go' }),
  )
  expect(JSON.stringify(webPrompt.json)).not.toContain('acme/api')

  await pullRequest(secret, 'acme/web', 2)
  const webNext = await postHook(
    home,
    'UserPromptSubmit',
    hookInput('UserPromptSubmit', WEB, web, { prompt: 'and?' }),
  )
  expect(JSON.stringify(webNext.json)).toContain('acme/web')
  await new Promise((r) => setTimeout(r, 300))
  expect(apiChannel.events.map((e) => e.meta?.repository)).toEqual(['acme/api'])

  // About a project no session has: kept, said to be waiting for it, and the first session of that
  // project gets it.
  const parked = await pullRequest(secret, 'acme/docs', 3)
  const shown = await runCli(['events', 'show', parked], home.env)
  expect(shown.stdout).toMatch(/waits for a session of repo:acme\/docs/)
  const docs = await channelIn(repository('docs', 'https://github.com/acme/docs'), 'docs-session')
  const [late] = await docs.waitForEvents(1)
  expect(late?.meta?.event_id).toBe(parked)
})

it('takes what is about no project only where a session asks for it: a source bound to its project, or its project file', async () => {
  await start()
  const api = repository('api', 'https://github.com/acme/api.git')
  const web = repository('web', 'https://github.com/acme/web.git')
  writeFileSync(join(web, '.switchboard.json'), JSON.stringify({ topics: ['alerts'] }))
  const ci = await home.addSource('ci')
  const alerts = await home.addSource('alerts')
  const apiChannel = await channelIn(api, API)
  const webChannel = await channelIn(web, WEB)
  const post = (source: string, secret: string, text: string) =>
    fetch(`${home.url}/hooks/${source}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: text,
    })

  expect((await post('alerts', alerts, 'disk full on db-1')).status).toBe(202)
  const [alert] = await webChannel.waitForEvents(1)
  expect(alert?.content).toBe('disk full on db-1')
  expect((await post('ci', ci, 'the nightly build is red')).status).toBe(202)
  await runCli(['source', 'bind', 'ci', '--project', api], home.env)
  expect((await post('ci', ci, 'the api build is red')).status).toBe(202)
  const [build] = await apiChannel.waitForEvents(1)
  expect(build?.content).toBe('the api build is red')
  await new Promise((r) => setTimeout(r, 300))
  expect(apiChannel.events.map((e) => e.content)).toEqual(['the api build is red'])
  expect(webChannel.events.map((e) => e.content)).toEqual(['disk full on db-1'])
  const listed = await runCli(['source', 'list'], home.env)
  expect(listed.stdout).toContain(`ci\ttopic=ci\tpreset=generic\tabout=folder:${api},repo:acme/api`)
})

it('gives a session everything when its project file or the hub says so, as before', async () => {
  const log = join(home.dir, 'hub-test.log')
  await start({ SWITCHBOARD_LOG_FILE: log })
  const api = repository('api', 'https://github.com/acme/api.git')
  writeFileSync(join(api, '.switchboard.json'), JSON.stringify({ everything: true }))
  const web = repository('web', 'https://github.com/acme/web.git')
  writeFileSync(join(web, '.switchboard.json'), '{"topics": "alerts"}')
  const ci = await home.addSource('ci')
  const apiChannel = await channelIn(api, API)
  const webChannel = await channelIn(web, WEB)
  await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ci}` },
    body: 'red',
  })
  const [everything] = await apiChannel.waitForEvents(1)
  expect(everything?.content).toBe('red')
  // A project file that does not read is said in the hub's log; its sessions get their project only.
  await waitFor(
    () => existsSync(log) && readFileSync(log, 'utf8').includes('a project file was not taken'),
    10_000,
    'the project file refused in the log',
  )
  expect(webChannel.events).toEqual([])
})
