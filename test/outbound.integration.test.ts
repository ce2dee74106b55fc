// Outbound webhooks: each event POSTed signed, retried with backoff, dead-lettered when the
// receiver never answers 2xx.
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { freePort, TestHome, waitFor } from './helpers/home.js'

let home: TestHome
let receiver: Server | null = null

beforeEach(async () => {
  home = await TestHome.create()
})

afterEach(async () => {
  receiver?.closeAllConnections()
  await new Promise((r) => (receiver ? receiver.close(r) : r(null)))
  receiver = null
  await home.cleanup()
})

/** A receiver that answers each POST with the next status of `statuses` (then 200). */
async function receive(statuses: number[] = []) {
  const got: { body: string; signature: string; status: number }[] = []
  const port = await freePort()
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c
    })
    req.on('end', () => {
      const status = statuses.shift() ?? 200
      got.push({ body, signature: String(req.headers['x-switchboard-signature-256']), status })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((r) => receiver?.listen(port, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${port}/hook`, got }
}

async function subscribe(url: string, ...flags: string[]) {
  const out = await home.cli('subscribe', '--url', url, '--topics', 'ci', '--backoff-ms', '20', ...flags)
  return { secret: /secret: (\S+)/.exec(out)?.[1] ?? '', name: /^(webhook:\S+)/.exec(out)?.[1] ?? '' }
}

/** The webhook source events come in through. */
async function ciSource() {
  return { secret: await home.addSource('ci') }
}

it('POSTs each event signed with the subscription secret', async () => {
  const { url, got } = await receive()
  const sub = await subscribe(url)
  const source = await ciSource()
  const res = await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${source.secret}` },
    body: 'deploy done',
  })
  const { id } = (await res.json()) as { id: string }
  await waitFor(() => got.length === 1, 10_000, 'the POST')
  const [post] = got
  expect(JSON.parse(post?.body ?? '{}')).toMatchObject({ id, topic: 'ci', content: 'deploy done' })
  expect(post?.signature).toBe(
    `sha256=${createHmac('sha256', sub.secret)
      .update(post?.body ?? '')
      .digest('hex')}`,
  )
  // Its receipt says so: written for the webhook once its receiver took it.
  await waitFor(
    async () =>
      (await home.api('event', { params: { id } })).deliveries.some(
        (d) => d.subscriber === sub.name && d.state === 'written' && d.written !== null,
      ),
    10_000,
    "the webhook's written receipt",
  )
})

it('retries a receiver that fails twice, and it gets the event once', async () => {
  const { url, got } = await receive([500, 503])
  const sub = await subscribe(url)
  const source = await ciSource()
  await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${source.secret}` },
    body: 'try me',
  })
  await waitFor(() => got.some((g) => g.status === 200), 10_000, 'the third attempt')
  await new Promise((r) => setTimeout(r, 300))
  expect(got.map((g) => g.status)).toEqual([500, 503, 200])
  expect(new Set(got.map((g) => JSON.parse(g.body).id)).size).toBe(1)
  const log = await home.cli('deliveries', sub.name)
  expect(
    log
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[3]),
  ).toEqual(['200', '503', '500'])
})

it('dead-letters an event a dead receiver never takes', async () => {
  const port = await freePort() // nothing listens here
  await subscribe(`http://127.0.0.1:${port}/gone`, '--max-attempts', '3')
  const source = await ciSource()
  await fetch(`${home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${source.secret}` },
    body: 'lost cause',
  })
  await waitFor(
    async () => (await home.cli('dead-letters')).includes(`webhook\thttp://127.0.0.1:${port}/gone`),
    10_000,
    'the dead letter',
  )
  expect(await home.cli('dead-letters')).toMatch(/no 2xx after 3 attempts/)
  expect((await home.cliFails('subscribe', '--url', 'ftp://x')).stderr).toMatch(/must be an http\(s\) URL/)
})
