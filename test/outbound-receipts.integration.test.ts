// Outbound webhooks told of receipts (issue 23): one created with --receipts is POSTed a signed
// receipt when an event of its topics is in a session's context, or ends unconfirmed, once, also
// across a hub that was killed; one without it gets the events only. The session is a channel
// played by the MCP SDK Client, and Claude Code's transcript is written by the test as Claude Code
// writes it (docs/transcript-receipts.md), so the channel confirms as it does under Claude Code.
import { randomUUID } from 'node:crypto'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { projectFolderName } from '../src/claude/transcript-file.js'
import { signBody } from '../src/hub/outbound/outbound.js'
import { ChannelClient } from './helpers/channel-client.js'
import { alive, freePort, TestHome, waitFor } from './helpers/home.js'

let home: TestHome
let claudeDir: string
const opened: { close(): unknown }[] = []
const receivers: Server[] = []

beforeEach(async () => {
  home = await TestHome.create()
  claudeDir = mkdtempSync(join(tmpdir(), 'switchboard-claude-'))
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  for (const r of receivers.splice(0)) {
    r.closeAllConnections()
    await new Promise((done) => r.close(done))
  }
  await home.cleanup()
  rmSync(claudeDir, { recursive: true, force: true })
})

interface Post {
  body: Record<string, unknown>
  raw: string
  signature: string
  kind: string | undefined
  status: number
}

/** A receiver on 127.0.0.1 that records each POST; `fail` says which to answer 503. */
async function receiver(fail: (body: Record<string, unknown>) => boolean = () => false) {
  const got: Post[] = []
  const port = await freePort()
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => {
      raw += c
    })
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>
      const status = fail(body) ? 503 : 200
      got.push({
        body,
        raw,
        signature: String(req.headers['x-switchboard-signature-256']),
        kind: req.headers['x-switchboard-kind'] as string | undefined,
        status,
      })
      res.writeHead(status).end()
    })
  })
  receivers.push(server)
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${port}/`,
    got,
    receipts: () => got.filter((p) => p.body.type === 'receipt' && p.status === 200),
    events: () => got.filter((p) => p.body.type === undefined),
  }
}

async function subscribe(url: string, ...flags: string[]) {
  const out = await home.cli('subscribe', '--url', url, '--topics', 'ci', '--backoff-ms', '50', ...flags)
  return { secret: /secret: (\S+)/.exec(out)?.[1] ?? '', name: /^(webhook:\S+)/.exec(out)?.[1] ?? '' }
}

/**
 * A channel under "Claude Code" (CLAUDECODE=1, a session id, a config folder): it confirms each event
 * against the session's transcript, which this test writes as Claude Code does when `inContext`.
 */
async function session(name: string, { inContext = true, env = {} as Record<string, string> } = {}) {
  const cwd = join(claudeDir, 'work')
  mkdirSync(cwd, { recursive: true })
  const sessionId = randomUUID()
  const folder = join(claudeDir, 'projects', projectFolderName(cwd))
  mkdirSync(folder, { recursive: true })
  const transcript = join(folder, `${sessionId}.jsonl`)
  const c = await ChannelClient.start(
    home,
    ['--name', name],
    { CLAUDECODE: '1', CLAUDE_CONFIG_DIR: claudeDir, CLAUDE_CODE_SESSION_ID: sessionId, ...env },
    cwd,
  )
  opened.push(c)
  c.onEvent = (event) => {
    if (!inContext) return
    const tag = `<channel source="switchboard" event_id="${event.meta?.event_id}">${event.content}</channel>`
    appendFileSync(
      transcript,
      `${JSON.stringify({
        type: 'user',
        isMeta: true,
        origin: { kind: 'channel', server: 'switchboard' },
        message: { role: 'user', content: tag },
        timestamp: new Date().toISOString(),
      })}\n`,
    )
  }
  return c
}

async function post(secret: string, body: string): Promise<string> {
  const res = await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { id: string }).id
}

it('POSTs a signed receipt once when an event is in context, to the webhook that asked only', async () => {
  const told = await receiver()
  const plain = await receiver()
  await session('desk')
  await home.waitForHub()
  const withReceipts = await subscribe(told.url, '--receipts')
  await subscribe(plain.url)
  const secret = await home.addSource('ci')

  const first = await post(secret, 'build 1 failed')
  await waitFor(() => told.receipts().length === 1, 15_000, 'the receipt of the first event')
  const [receipt] = told.receipts()
  expect(receipt?.body).toEqual({
    type: 'receipt',
    event_id: first,
    topic: 'ci',
    session: 'desk',
    stage: 'in_context',
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    tries: expect.any(Number),
    reason: null,
  })
  expect(receipt?.body.tries).toBeGreaterThanOrEqual(1)
  expect(receipt?.kind).toBe('receipt')
  expect(receipt?.signature).toBe(signBody(withReceipts.secret, receipt?.raw ?? ''))

  // A second event's receipt comes after the first's, in order: by then a second telling of the
  // first would have come too.
  const second = await post(secret, 'build 2 failed')
  await waitFor(() => told.receipts().length === 2, 15_000, 'the receipt of the second event')
  await waitFor(() => plain.events().length === 2, 15_000, 'both events at the plain webhook')
  await waitFor(() => told.events().length === 2, 15_000, 'both events at the webhook told of receipts')
  expect(told.receipts().map((r) => r.body.event_id)).toEqual([first, second])
  expect(told.events().map((e) => e.body.id)).toEqual([first, second])
  expect(plain.got.filter((p) => p.body.type === 'receipt')).toEqual([])

  const log = await home.cli('deliveries', withReceipts.name)
  expect(log).toContain(`${first} (receipt)\tattempt 1\t200`)
  expect(await home.cli('subscribe', 'list')).toMatch(new RegExp(`${withReceipts.name}\\t.*\\treceipts\\n`))
})

it('tells the webhook of an event that ends unconfirmed, with why', async () => {
  const told = await receiver()
  await session('deaf', {
    inContext: false,
    env: { SWITCHBOARD_CONFIRM_MS: '100', SWITCHBOARD_CONFIRM_TRIES: '1' },
  })
  await home.waitForHub()
  await subscribe(told.url, '--receipts')
  const id = await post(await home.addSource('ci'), 'nobody reads this')
  await waitFor(() => told.receipts().length === 1, 15_000, 'the unconfirmed receipt')
  expect(told.receipts()[0]?.body).toMatchObject({
    type: 'receipt',
    event_id: id,
    session: 'deaf',
    stage: 'unconfirmed',
    tries: 1,
    reason: expect.any(String),
  })
})

it('keeps a receipt the receiver failed through a hub killed meanwhile, and sends it once back', async () => {
  let down = true
  const told = await receiver((body) => body.type === 'receipt' && down)
  await session('desk')
  await home.waitForHub()
  const sub = await subscribe(told.url, '--receipts', '--max-attempts', '20')
  const id = await post(await home.addSource('ci'), 'deploy 3 done')
  await waitFor(
    () => told.got.some((p) => p.body.type === 'receipt' && p.status === 503),
    15_000,
    'a failed receipt POST',
  )
  const hub = home.hubPid() as number
  process.kill(hub, 'SIGKILL')
  await waitFor(() => !alive(hub), 10_000, 'the hub to die')
  down = false
  // Any command starts a hub again; the channel reconnects to it.
  await home.cli('subscribe', 'list')
  await waitFor(() => told.receipts().length === 1, 30_000, 'the receipt after the restart')
  expect(told.receipts()[0]?.body).toMatchObject({ event_id: id, stage: 'in_context', session: 'desk' })
  expect(await home.cli('deliveries', sub.name)).toMatch(
    new RegExp(`${id} \\(receipt\\)\\tattempt \\d+\\t200`),
  )
})
