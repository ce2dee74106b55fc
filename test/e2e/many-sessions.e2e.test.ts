// Many sessions, each its own (issue 33), with the real Claude Code CLI: two projects, `api` and `web`,
// each a git repository with an origin on GitHub; the hooks installed for both and the channel plugin
// loaded in `api`; the (fake) Telegram with a forum group in topic mode; the hub's default routing.
// A signed GitHub webhook about api is in api's transcript once and never in web's; api's Bash prompt
// on Telegram names api; each session has one topic titled with its folder; a message written in
// api's topic reaches api only; a driven session's topic is closed when it stops.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { projectFolderName } from '../../src/claude/transcript-file.js'
import { marksOf } from '../../src/claude/transcript-marks.js'
import { latestTurn, type MessagesRequest, toolResults } from '../fakes/anthropic.js'
import type { FakeThread } from '../fakes/chat-platform.js'
import { fixture, signature } from '../fixtures/webhooks/load.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub, waitForChannel } from '../helpers/e2e.js'
import { CLI, waitFor } from '../helpers/home.js'
import { PLUGIN_CHANNEL } from '../helpers/plugin.js'
import { waitForState } from '../helpers/receipts.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })
const GROUP = '-1001234567890'

/** A git repository with `origin` on GitHub. */
function repository(root: string, name: string): string {
  const dir = join(root, name)
  mkdirSync(dir)
  execFileSync('git', ['init', '-q', dir])
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', `https://github.com/acme/${name}.git`])
  return dir
}

/** Everything Claude Code wrote in the transcripts of sessions in `folder`. */
function transcriptsOf(folder: string): string {
  const dir = join(world.claude.home, '.claude', 'projects', projectFolderName(folder))
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n')
  } catch {
    return ''
  }
}

/** How many lines of `folder`'s transcripts put the event into Claude's context (as the channel reads them). */
function inContext(folder: string, id: string): number {
  let n = 0
  for (const line of transcriptsOf(folder).split('\n')) {
    if (!line.includes(id)) continue
    try {
      const marks = marksOf(JSON.parse(line))
      if (marks?.mark === 'in_context' && marks.ids.includes(id)) n++
    } catch {
      // a line being written
    }
  }
  return n
}

it('keeps two projects’ sessions each its own: events, prompts, topics and messages', {
  timeout: 300_000,
}, async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'two-projects-')))
  world.closers.push(() => rmSync(root, { recursive: true, force: true }))
  const api = repository(root, 'api')
  const web = repository(root, 'web')
  const telegram = await FAKES.telegram()
  world.closers.push(() => telegram.close())
  telegram.addGroup(GROUP)
  await world.home.cli(...bridgeAddArgs(telegram))
  await world.home.cli('bridge', 'group', 'add', 'telegram', GROUP, '--topics')
  // As a user has it: every session gets what is about its own project.
  const routing = { SWITCHBOARD_ROUTING: 'project' }
  await startDrivingHub(world, routing)
  await telegram.waitFor(() => telegram.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  await pair(world.home, telegram, olga, true)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env: drivingEnv(world) })
  const secret = /secret: (\S+)/.exec(
    await world.home.cli('source', 'add', 'github', '--preset', 'github'),
  )?.[1]

  // The model: in api it runs the tests when asked; everywhere else it says what it was told.
  const inProject = (r: MessagesRequest, dir: string) => JSON.stringify(r).includes(`${dir}`)
  world.fake.respond((r) => {
    if (toolResults(r).length) return { text: 'done' }
    const turn = latestTurn(r)
    if (inProject(r, api) && turn.includes('run the api tests'))
      return { tool: 'Bash', input: { command: 'npm test --workspace api', description: 'Run the tests' } }
    if (inProject(r, web) && turn.includes('run the web tests'))
      return { tool: 'Bash', input: { command: 'npm test --workspace web', description: 'Run the tests' } }
    return { text: `noted: ${turn.slice(-80)}` }
  })

  // The person's sessions: api with the channel plugin, web with the hooks alone; both by the hooks.
  const { SWITCHBOARD_DRIVEN: _, ...env } = drivingEnv(world, routing)
  const apiSession = new PrintSession(PLUGIN_CHANNEL, { cwd: api, env, timeoutSeconds: 280 })
  world.closers.push(() => apiSession.close())
  const webSession = new PrintSession([], { cwd: web, env, timeoutSeconds: 280 })
  world.closers.push(() => webSession.close())
  await waitForChannel(world)
  await apiSession.waitForMcpServer()
  await apiSession.sendUntilChannelWired('tidy the api')
  webSession.send('tidy the web')
  await webSession.waitForResults(1)

  // A signed GitHub delivery about acme/api: in api's transcript once, never in web's.
  const pullRequest = async (repository: string, delivery: string): Promise<string> => {
    const { json } = fixture('github-pull_request-opened')
    const payload = json as { repository: Record<string, unknown> }
    payload.repository.full_name = repository
    const raw = Buffer.from(JSON.stringify(payload))
    const res = await fetch(`${world.home.url}/hooks/github`, {
      method: 'POST',
      body: raw,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': delivery,
        'x-hub-signature-256': signature(secret as string, raw),
      },
    })
    expect(res.status).toBe(202)
    return ((await res.json()) as { id: string }).id
  }
  const id = await pullRequest('acme/api', 'b2f5f0a0-0000-4000-8000-000000000001')
  await waitFor(() => inContext(api, id) > 0, 60_000, 'the event in api’s context')
  // web's next prompt takes what waits for it: nothing about api; one about web, confirmed in its
  // context from its transcript, as the channel's are.
  const forWeb = await pullRequest('acme/web', 'b2f5f0a0-0000-4000-8000-000000000002')
  webSession.send('anything new?')
  await webSession.waitForResults(2)
  expect(transcriptsOf(web)).not.toContain(id)
  const [confirmed] = await waitForState(world, [forWeb], 'in_context', 60_000)
  expect(confirmed?.subscriber).toBe('web')

  // api runs its tests: the Bash prompt on Telegram names api, in api's own topic.
  apiSession.send('run the api tests')
  const prompt = await telegram.waitFor(
    () => telegram.sent().find((m) => m.text.includes('npm test --workspace api')),
    'api’s Bash prompt on Telegram',
    60_000,
  )
  expect(prompt.text).toContain('api · tidy the api')
  const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')?.data as string
  await telegram.press(olga, prompt.chatId, prompt.messageId, allow)

  await apiSession.waitForResults(apiSession.results().length + 1)
  // web, a session with the hooks alone, asks too: its prompt names web, in its own topic.
  webSession.send('run the web tests')
  const webPrompt = await telegram.waitFor(
    () => telegram.sent().find((m) => m.text.includes('npm test --workspace web')),
    'web’s Bash prompt on Telegram',
    60_000,
  )
  expect(webPrompt.text).toContain('web · tidy the web')
  const deny = webPrompt.buttons.flat().find((b) => b.text === 'Deny')?.data as string
  await telegram.press(olga, webPrompt.chatId, webPrompt.messageId, deny)
  await webSession.waitForResults(3)

  // Each session one topic, titled with its folder and first prompt.
  const topics = () => telegram.threads().filter((t) => t.chatId === GROUP)
  const apiTopic = topics().find((t) => t.title === 'api · tidy the api') as FakeThread
  const webTopic = topics().find((t) => t.title === 'web · tidy the web') as FakeThread
  expect(
    topics()
      .map((t) => t.title)
      .sort(),
  ).toEqual(['api · tidy the api', 'web · tidy the web'])
  expect(prompt.thread).toBe(apiTopic.thread)
  expect(webPrompt.thread).toBe(webTopic.thread)

  // A message written in api's topic reaches api only.
  const before = apiSession.results().length
  await telegram.groupMessage(GROUP, olga, 'please also check the logs', { thread: apiTopic.thread })
  await waitFor(() => transcriptsOf(api).includes('please also check the logs'), 60_000, 'the message in api')
  await apiSession.waitForResults(before + 1)
  webSession.send('and now?')
  await webSession.waitForResults(4)
  expect(transcriptsOf(web)).not.toContain('please also check the logs')
  // The webhook's event went into api's context once, whatever came after it.
  expect(inContext(api, id)).toBe(1)

  // A driven session started in the main chat (no mention) gets a topic, closed when it stops.
  await telegram.groupMessage(GROUP, olga, `/new ${web} summarise the web`)
  const started = await telegram.waitFor(
    () => botMessages(telegram, GROUP).find((m) => /Started (ses_\w+)/.test(m.text)),
    '/new answered in the main chat',
    30_000,
  )
  const driven = /Started (ses_\w+)/.exec(started.text)?.[1] as string
  const drivenTopic = (await telegram.waitFor(
    () => topics().find((t) => t.title === 'web · summarise the web'),
    'the driven session’s topic',
  )) as FakeThread
  await telegram.groupMessage(GROUP, olga, `/stop ${driven}`)
  await telegram.waitFor(
    () => topics().find((t) => t.thread === drivenTopic.thread)?.closed,
    'the driven session’s topic closed',
    30_000,
  )
  // One topic per session, whatever happened.
  expect(
    topics()
      .map((t) => t.title)
      .sort(),
  ).toEqual(['api · tidy the api', 'web · summarise the web', 'web · tidy the web'])
})
