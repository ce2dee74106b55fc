// A hub beyond loopback, as a stranger on the network meets it: TLS with a certificate the hub made
// once (or was given), plain HTTP only over loopback or when its owner said --insecure; and a client
// that sends the admin token only over a connection on which the hub proved it holds the token, so a
// relay in the middle (with or without a certificate of its own) gets nothing it can use.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { expect, it } from 'vitest'
import { fingerprintOf } from '../src/core/fingerprint.js'
import { selfSignedCertificate } from '../src/hub/net/self-signed.js'
import { CLI, runCli } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { Relay } from './helpers/relay.js'

const world = homePerTest()

/** This machine's first network address, if it has one (the tests then talk to it as a stranger would). */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address

function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { ...world.home.env, ...env }, { timeout: 30_000 })
}

/** `switchboard serve` with these flags; its stderr kept. The home's clean-up stops it. */
async function serve(...flags: string[]): Promise<{ hub: ChildProcess; stderr: () => string }> {
  const hub = spawn(process.execPath, [CLI, 'serve', ...flags], { env: world.home.env })
  const err: string[] = []
  hub.stderr?.on('data', (chunk) => err.push(String(chunk)))
  await world.home.waitForHub()
  return { hub, stderr: () => err.join('') }
}

/** Relays the owner lets name the hub (allowedHosts, as behind a proxy): only the proof stops them. */
function allowRelays(...relays: Relay[]): void {
  const config = { allowedHosts: relays.map((r) => r.address) }
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify(config))
}

async function stop(hub: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => hub.once('exit', resolve))
  hub.kill('SIGTERM')
  await exited
}

/** The certificate a TLS server at host:port shows (no CA asked). */
function certificateAt(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, rejectUnauthorized: false }, () => {
      resolve(fingerprintOf(socket.getPeerCertificate()))
      socket.end()
    })
    socket.on('error', reject)
  })
}

/** A plain HTTP GET, as a browser or script that did not ask for TLS sends it. */
function plainGet(host: string, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path }, (res) => {
      let body = ''
      res.on('data', (c) => {
        body += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const adminToken = () => readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()

it('speaks TLS beyond loopback with a certificate it made once, and plain HTTP only over loopback', async () => {
  const first = await serve('--host', '0.0.0.0')
  const fingerprint = JSON.parse(await world.home.cli('status', '--json')).fingerprint as string
  expect(fingerprint).toMatch(/^[0-9a-f]{64}$/)
  expect(first.stderr()).toContain(
    `switchboard: TLS with certificate sha256:${fingerprint}; other machines name this hub`,
  )
  const pem = join(world.home.dir, 'tls', 'hub.pem')
  expect(statSync(pem).mode & 0o777).toBe(0o600)
  expect(statSync(join(world.home.dir, 'tls')).mode & 0o777).toBe(0o700)
  // Local processes still talk plain HTTP over loopback; TLS there shows the same certificate.
  expect((await plainGet('127.0.0.1', world.home.port, '/health')).status).toBe(200)
  expect(await certificateAt('127.0.0.1', world.home.port)).toBe(fingerprint)
  if (lan) {
    expect(await certificateAt(lan, world.home.port)).toBe(fingerprint)
    const clear = await plainGet(lan, world.home.port, '/health')
    expect(clear).toEqual({ status: 400, body: 'this hub speaks HTTPS beyond this machine\n' })
    expect(first.stderr()).toContain(`SWITCHBOARD_HUBS=${lan}:${world.home.port}#sha256:${fingerprint}`)
  }
  // Made once: the same certificate after a restart.
  await stop(first.hub)
  await serve('--host', '0.0.0.0')
  expect(await certificateAt('127.0.0.1', world.home.port)).toBe(fingerprint)
})

it('refuses a certificate it cannot use in one line, and runs plain HTTP beyond loopback only with --insecure, saying so', async () => {
  const mine = selfSignedCertificate()
  const other = selfSignedCertificate()
  const file = (name: string, text: string) => {
    writeFileSync(join(world.home.dir, name), text)
    return join(world.home.dir, name)
  }
  const [cert, wrongKey] = [file('hub.crt', mine.cert), file('other.key', other.key)]
  const alone = await cli(['serve', '--host', '0.0.0.0', '--tls-cert', cert])
  expect(alone.code).not.toBe(0)
  expect(alone.stderr).toBe(
    'switchboard: --tls-cert and --tls-key go together: the certificate and its key, both PEM files\n',
  )
  const mismatched = await cli(['serve', '--host', '0.0.0.0', '--tls-cert', cert, '--tls-key', wrongKey])
  expect(mismatched.code).not.toBe(0)
  expect(mismatched.stderr).toBe(`switchboard: ${wrongKey}: not the key of the certificate in ${cert}\n`)

  // A certificate given is the one spoken, on loopback too.
  const given = await serve('--tls-cert', cert, '--tls-key', file('hub.key', mine.key))
  expect(await certificateAt('127.0.0.1', world.home.port)).toBe(fingerprintOf(mine.cert))
  await stop(given.hub)

  const insecure = await serve('--host', '0.0.0.0', '--insecure')
  expect(insecure.stderr()).toContain(
    `switchboard: --insecure: plain HTTP on 0.0.0.0:${world.home.port}; anyone on the network can read and change what passes`,
  )
  if (lan) expect((await plainGet(lan, world.home.port, '/health')).status).toBe(200)
  const status = JSON.parse(await world.home.cli('status', '--json'))
  expect(status).toMatchObject({ fingerprint: null, inClear: true })
})

it('gives a relay between a client and its hub neither the admin token nor a proof it can pass on', async () => {
  const relay = await Relay.start({ host: '127.0.0.1', port: world.home.port })
  world.opened.push(relay)
  allowRelays(relay)
  await serve()
  const viaRelay = await cli(['status'], { SWITCHBOARD_HUBS: relay.address })
  expect(viaRelay.code).not.toBe(0)
  expect(viaRelay.stderr).toBe(
    `switchboard: no hub in SWITCHBOARD_HUBS proved it holds this admin token, so nothing was sent: ${relay.address} could not prove it holds the admin token\n`,
  )
  const channel = await cli(['channel'], { SWITCHBOARD_HUBS: relay.address })
  expect(channel.code).not.toBe(0)
  expect(channel.stderr).toContain(
    `switchboard: the server on ${relay.address} is not this home's hub (it could not prove it holds the admin token); not connecting`,
  )
  expect(relay.seen).toContain('/health?challenge=')
  expect(relay.seen).not.toMatch(/authorization/i)
  expect(relay.seen).not.toContain(adminToken())
  // The hub itself, named directly, proves itself.
  expect((await cli(['status'], { SWITCHBOARD_HUBS: `127.0.0.1:${world.home.port}` })).code).toBe(0)
})

it('sends a relay with a certificate of its own nothing, and a relay passing TLS on only ciphertext', async () => {
  const hub = { host: '127.0.0.1', port: world.home.port }
  const passing = await Relay.start(hub)
  const mitmCert = selfSignedCertificate()
  const mitm = await Relay.start(hub, { tls: mitmCert, hubTls: true })
  world.opened.push(passing, mitm)
  allowRelays(passing, mitm)
  await serve('--host', '0.0.0.0')
  const fingerprint = JSON.parse(await world.home.cli('status', '--json')).fingerprint as string
  const pinned = (address: string, fp = fingerprint) => ({ SWITCHBOARD_HUBS: `${address}#sha256:${fp}` })

  const through = await cli(['status', '--json'], pinned(passing.address))
  expect(through.code).toBe(0)
  expect(JSON.parse(through.stdout).fingerprint).toBe(fingerprint)
  expect(passing.seen).not.toMatch(/GET \/|authorization/i)

  const refused = await cli(['status'], pinned(mitm.address))
  expect(refused.code).not.toBe(0)
  expect(refused.stderr).toContain(
    `${mitm.address} showed the certificate sha256:${fingerprintOf(mitmCert.cert)}, not the pinned sha256:${fingerprint}`,
  )
  expect(mitm.seen).toBe('') // not one byte of a request
  // Pinned to the relay's own certificate (a wrong fingerprint given), the hub's proof, passed on,
  // names the hub's certificate, not the one this client sees: nothing more is sent.
  const fooled = await cli(['status'], pinned(mitm.address, fingerprintOf(mitmCert.cert)))
  expect(fooled.code).not.toBe(0)
  expect(fooled.stderr).toContain('could not prove it holds the admin token')
  expect(mitm.seen).toContain('/health?challenge=')
  expect(mitm.seen).not.toMatch(/authorization/i)
})

it.skipIf(!lan)(
  'never sends the admin token in clear beyond loopback, even to a hub that answers',
  async () => {
    // What crosses the network to the hub, as a tap on it sees it.
    const tap = await Relay.start({ host: lan as string, port: world.home.port }, { host: lan as string })
    world.opened.push(tap)
    allowRelays(tap)
    await serve('--host', '0.0.0.0', '--insecure')
    const status = await cli(['status'], { SWITCHBOARD_HUBS: tap.address })
    expect(status.code).not.toBe(0)
    expect(status.stderr).toContain(`${tap.address} does not speak TLS`)
    const channel = await cli(['channel'], { SWITCHBOARD_HUBS: tap.address })
    expect(channel.code).not.toBe(0)
    expect(tap.seen).not.toMatch(/authorization|GET \//i)
    expect(tap.seen).not.toContain(adminToken())
  },
)
