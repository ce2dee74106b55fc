// How a process names and dials a hub (SWITCHBOARD_HUBS, a lease's address) and whether what answers
// proved it is the hub: against servers in this process, a stranger and a relay among them.
import { createServer as createHttpServer, type Server } from 'node:http'
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { describeTarget, hubTarget, inClear, reach } from './hub-dial.js'
import { connectionBinding, hubProof } from './hub-proof.js'
import { hubListSchema } from './settings/addresses.js'

/** A hub list as the settings read it, its first mistake thrown as the line they print. */
function parseHubs(text: string, place: string) {
  const parsed = hubListSchema().safeParse(text.split(','))
  if (!parsed.success) throw new Error(`${place}: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

const PIN = 'ab'.repeat(32)
const PIN_WITH_COLONS = Array.from({ length: 32 }, () => 'AB').join(':')

describe('naming hubs (SWITCHBOARD_HUBS)', () => {
  it('reads hosts, bracketed IPv6 and pinned certificates, separated by commas', () => {
    expect(
      parseHubs(` hub-a:7420, [::1]:7421 ,10.0.0.5:7422#sha256:${PIN_WITH_COLONS},`, 'SWITCHBOARD_HUBS'),
    ).toEqual([
      { host: 'hub-a', port: 7420 },
      { host: '::1', port: 7421 },
      { host: '10.0.0.5', port: 7422, fingerprint: PIN },
    ])
  })

  it('says which entry is wrong and what it should look like', () => {
    expect(() => parseHubs('hub-a:7420,hub-b', 'SWITCHBOARD_HUBS')).toThrow(
      'SWITCHBOARD_HUBS: "hub-b" is not host:port (hubs are separated by commas)',
    )
    expect(() => parseHubs('hub-a:70000', 'SWITCHBOARD_HUBS')).toThrow(
      /hub-a:70000: port must be between 1 and 65535/,
    )
    expect(() => parseHubs('hub-a:7420#md5:abc', 'SWITCHBOARD_HUBS')).toThrow(
      /after # comes the hub's certificate as sha256:<64 hex digits>/,
    )
  })

  it('dials loopback in plain HTTP, anything else over TLS, and a pinned hub only to its certificate', () => {
    const [loop, v6, far, pinned] = parseHubs(
      `127.0.0.2:1,[::1]:2,hub.example:3,localhost:4#sha256:${PIN}`,
      'SWITCHBOARD_HUBS',
    ).map(hubTarget)
    expect(loop).toEqual({ host: '127.0.0.2', port: 1 })
    expect(v6).toEqual({ host: '::1', port: 2 })
    expect(far).toEqual({ host: 'hub.example', port: 3, tls: { fingerprint: null } })
    expect(pinned).toEqual({ host: 'localhost', port: 4, tls: { fingerprint: PIN } })
  })

  it('names a hub in messages the way it is written, and never sends the token in clear beyond loopback', () => {
    expect(describeTarget({ host: '::1', port: 7420 })).toBe('[::1]:7420')
    expect(describeTarget({ host: 'hub.example', port: 7420, tls: { fingerprint: PIN } })).toBe(
      `hub.example:7420#sha256:${PIN}`,
    )
    expect(describeTarget({ socketPath: '/home/ann/.switchboard/hub-7420.sock' })).toBe(
      '/home/ann/.switchboard/hub-7420.sock',
    )
    expect(inClear({ host: '10.0.0.5', port: 7420 })).toBe(true)
    expect(inClear({ host: '10.0.0.5', port: 7420, tls: { fingerprint: null } })).toBe(false)
    expect(inClear({ host: '127.0.0.1', port: 7420 })).toBe(false)
    expect(inClear({ socketPath: '/tmp/hub.sock' })).toBe(false)
  })
})

describe('whether what answers on a port is the hub', () => {
  const TOKEN = 'the-admin-token'
  const closers: (() => void)[] = []
  afterEach(() => {
    for (const close of closers.splice(0)) close()
  })

  /** A server on a free loopback port answering /health with `proof(challenge, binding)`. */
  async function listen(proof: (challenge: string, binding: string) => string | undefined): Promise<number> {
    const server: Server = createHttpServer((req, res) => {
      const challenge = new URL(req.url ?? '/', 'http://x').searchParams.get('challenge') ?? ''
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ ok: true, proof: proof(challenge, connectionBinding(req.socket, 'hub')) }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => server.close())
    return (server.address() as AddressInfo).port
  }

  it('finds nothing on a port nobody listens on', async () => {
    const port = await listen(() => undefined)
    closers.pop()?.()
    expect(await reach({ host: '127.0.0.1', port }, TOKEN)).toEqual({ answered: false })
  })

  it('trusts a hub that proves it holds the token on this very connection', async () => {
    const port = await listen((challenge, binding) => hubProof(TOKEN, challenge, binding))
    expect(await reach({ host: '127.0.0.1', port }, TOKEN)).toEqual({
      answered: true,
      proven: true,
      target: { host: '127.0.0.1', port },
    })
  })

  it('does not trust a server that answers without the proof, or with another token’s', async () => {
    const silent = await listen(() => undefined)
    const other = await listen((challenge, binding) => hubProof('another-token', challenge, binding))
    for (const port of [silent, other])
      expect(await reach({ host: '127.0.0.1', port }, TOKEN)).toEqual({
        answered: true,
        proven: false,
        problem: null,
      })
  })

  it('does not trust a relay that passes on the real hub’s proof from another port', async () => {
    const hub = await listen((challenge, binding) => hubProof(TOKEN, challenge, binding))
    const relay = createTcpServer((client) => {
      const upstream = connect(hub, '127.0.0.1')
      client.pipe(upstream).pipe(client)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
    closers.push(() => relay.close())
    const port = (relay.address() as AddressInfo).port
    expect(await reach({ host: '127.0.0.1', port }, TOKEN)).toEqual({
      answered: true,
      proven: false,
      problem: null,
    })
  })
})
