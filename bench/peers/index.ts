// bench/peers: a message from one session's channel to another's (send tool → notification at the
// receiver), and one webhook event fanned out to 100 subscribers over the hub protocol.
import { spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { HubClient } from '../../src/client/hub-client.js'
import { readAdminToken } from '../../src/core/admin-token.js'
import { createLogger } from '../../src/core/log.js'
import { ChannelNotification } from '../../test/helpers/channel-client.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { fmt, summarize } from '../stats.js'

const MESSAGES = Number(process.env.BENCH_PEER_MESSAGES ?? 1000)
const FANOUT = Number(process.env.BENCH_FANOUT ?? 100)
const FANOUT_EVENTS = Number(process.env.BENCH_FANOUT_EVENTS ?? 300)

const home = await TestHome.create()
const env = { ...(home.env as Record<string, string>), SWITCHBOARD_DELIVERY: 'channel' }
const hub = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
await home.waitForHub(10_000)

async function channel(name: string, onContent: (content: string) => void): Promise<Client> {
  const client = new Client({ name: 'claude-code', version: '0' })
  client.setNotificationHandler(ChannelNotification, ({ params }) => onContent(params.content))
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'channel', '--name', name],
      env,
      stderr: 'ignore',
    }),
  )
  return client
}

try {
  // --- session to session ------------------------------------------------------------------
  const waiting = new Map<string, () => void>()
  const alpha = await channel('alpha', () => {})
  const beta = await channel('beta', (content) => waiting.get(content)?.())
  const latencies: number[] = []
  for (let i = 0; i < MESSAGES + 100; i++) {
    const text = `m${i}`
    const arrived = new Promise<void>((resolve) => waiting.set(text, resolve))
    const t0 = performance.now()
    await alpha.callTool({ name: 'send', arguments: { to: 'beta', text } })
    await arrived
    if (i >= 100) latencies.push(performance.now() - t0)
    waiting.delete(text)
  }
  await alpha.close()
  await beta.close()
  const peer = summarize(latencies)

  // --- fan-out -------------------------------------------------------------------------------
  const source = await home.cli('source', 'add', 'fan')
  const secret = /secret: (\S+)/.exec(source)?.[1] ?? ''
  const token = readAdminToken({ home: home.dir, adminToken: null })
  const log = createLogger('bench', { logFile: '/dev/null', logLevel: 'info' })
  let expectContent = ''
  let remaining = 0
  let done: () => void = () => {}
  const clients: HubClient[] = []
  for (let i = 0; i < FANOUT; i++) {
    const c = new HubClient({
      target: { host: '127.0.0.1', port: home.port },
      token,
      subscriber: `sub-${i}`,
      topics: ['fan'],
      log,
      async onDeliver(event) {
        if (event.content === expectContent && --remaining === 0) done()
      },
      async onVerdict() {},
    })
    await c.connect(10_000)
    clients.push(c)
  }
  const agent = new Agent({ keepAlive: true })
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        `${home.url}/hooks/fan`,
        { method: 'POST', agent, headers: { authorization: `Bearer ${secret}` } },
        (res) => {
          res.resume()
          res.on('end', () => resolve())
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  const fan: number[] = []
  for (let i = 0; i < FANOUT_EVENTS + 20; i++) {
    expectContent = `e${i}`
    remaining = FANOUT
    const all = new Promise<void>((resolve) => {
      done = resolve
    })
    const t0 = performance.now()
    await post(expectContent)
    await all
    if (i >= 20) fan.push(performance.now() - t0)
  }
  for (const c of clients) await c.close()
  agent.destroy()
  const f = summarize(fan)

  console.log('bench/peers')
  console.log(
    `  session → session (send tool → notification), ${MESSAGES} messages: p50 ${fmt(peer.p50)} ms  p99 ${fmt(peer.p99)} ms   (target p50 ≤ 2 ms; c2c polls every second)`,
  )
  console.log(
    `  one webhook event → all of ${FANOUT} subscribers, ${FANOUT_EVENTS} events: p50 ${fmt(f.p50)} ms  p99 ${fmt(f.p99)} ms   (target p99 ≤ 20 ms)`,
  )
} finally {
  hub.kill('SIGTERM')
  await new Promise((r) => hub.once('exit', r))
  await home.cleanup()
}
