// The CLI for daily use, as a person at a terminal meets it: status, doctor, subscriptions, hooks,
// completion, a busy port, a refused channel, and one plain line per problem.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { promisify } from 'node:util'
import { afterEach, expect, it } from 'vitest'
import { fingerprintOf } from '../src/core/fingerprint.js'
import { CLAUDE_BIN } from './helpers/claude.js'
import { CLI, runCli } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()
const run = promisify(execFile)

/** Runs the CLI with this test's home, and HOME pointed at a throwaway folder; never throws. */
function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { ...world.home.env, HOME: userHome(), ...env })
}

let home: string | undefined
/** A user's home folder (where ~/.claude lives) for this test. */
function userHome(): string {
  home ??= mkdtempSync(join(tmpdir(), 'switchboard-user-'))
  return home
}
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true })
  home = undefined
})

async function startHub(): Promise<ChildProcess> {
  // The home's clean-up stops it.
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  await world.home.waitForHub()
  return hub
}

/** Something else holding the hub's port: answers HTTP, but is no Switchboard hub. */
async function stranger(): Promise<Server> {
  const server = createServer((_req, res) => res.end('{"ok":true}'))
  await new Promise<void>((resolve) => server.listen(world.home.port, '127.0.0.1', resolve))
  world.opened.push({ close: () => new Promise((r) => server.close(r)) })
  return server
}

const noJsonLogs = (text: string) => expect(text).not.toMatch(/\{"level"/)

it('status says the hub is down with exit 1, and when up says where and who is connected', async () => {
  const down = await cli(['status'])
  expect(down.code).toBe(1)
  expect(down.stdout).toMatch(/hub: not running .* start it: switchboard serve/)
  expect(JSON.parse((await cli(['status', '--json'])).stdout)).toMatchObject({ running: false })
  expect(await world.home.cliFails('status')).toMatchObject({ code: 1 })
  // status never starts a hub
  expect(await fetch(`${world.home.url}/health`).catch(() => null)).toBeNull()

  await startHub()
  await world.home.addSender('me', true)
  const up = await cli(['status'])
  expect(up.code).toBe(0)
  expect(up.stdout).toMatch(/hub: running, pid \d+/)
  expect(up.stdout).toContain(`address: http://127.0.0.1:${world.home.port}`)
  expect(up.stdout).toContain('operators: 1')
  const json = JSON.parse((await cli(['status', '--json'])).stdout)
  expect(json).toMatchObject({ running: true, port: world.home.port, home: world.home.dir, operators: 1 })
})

it('doctor passes a healthy set-up and names each problem of a broken one with its fix', async () => {
  await startHub()
  // Healthy: Claude Code found, the channel registered as a user MCP server, home owner-only.
  writeFileSync(
    join(userHome(), '.claude.json'),
    JSON.stringify({ mcpServers: { switchboard: { command: 'switchboard', args: ['channel'] } } }),
  )
  const healthy = await cli(['doctor'], { CLAUDE_CODE_PATH: CLAUDE_BIN })
  expect(healthy.stdout).toMatch(/ok +claude: Claude Code \d+\.\d+\.\d+ at .*; channels supported/)
  expect(healthy.stdout).toMatch(/ok +hub: running/)
  expect(healthy.stdout).toMatch(/ok +channel: switchboard channel is an MCP server/)
  expect(healthy.stdout).toContain('healthy')
  expect(healthy.code).toBe(0)
  const report = JSON.parse((await cli(['doctor', '--json'], { CLAUDE_CODE_PATH: CLAUDE_BIN })).stdout)
  expect(report.healthy).toBe(true)

  // Broken: no Claude Code, a loose home, a stranger on the port.
  await world.home.stopHub()
  chmodSync(world.home.dir, 0o755)
  await stranger()
  const broken = await cli(['doctor'], { CLAUDE_CODE_PATH: '', PATH: '/nonexistent' })
  expect(broken.code).toBe(1)
  expect(broken.stdout).toMatch(/FAIL +home: .* is mode 755/)
  expect(broken.stdout).toContain(`fix: chmod 700 ${world.home.dir}`)
  expect(broken.stdout).toMatch(/FAIL +claude: Claude Code not found/)
  expect(broken.stdout).toContain('fix: npm install -g @anthropic-ai/claude-code')
  expect(broken.stdout).toMatch(/FAIL +hub: port \d+ is held by another program/)
  expect(broken.stdout).toContain('not healthy')
  chmodSync(world.home.dir, 0o700)
})

it('lists outbound webhooks and removes one with what waited for it', async () => {
  await startHub()
  const added = await cli(['subscribe', '--url', 'http://127.0.0.1:9/hook', '--topics', 'ci'])
  const name = /^(webhook:\S+)/.exec(added.stdout)?.[1] as string
  expect(name).toBeTruthy()
  const listed = await cli(['subscribe', 'list'])
  expect(listed.stdout).toContain(`${name}\thttp://127.0.0.1:9/hook\ttopics ci`)
  expect(JSON.parse((await cli(['subscribe', 'list', '--json'])).stdout)).toMatchObject([
    { name, topics: ['ci'] },
  ])
  expect((await cli(['subscribe', 'remove', name])).stdout).toContain(`removed ${name}`)
  expect((await cli(['subscribe', 'list'])).stdout).toBe('no outbound webhooks\n')
  const again = await cli(['subscribe', 'remove', name])
  expect(again.code).not.toBe(0)
  expect(again.stderr).toBe(`switchboard: no outbound webhook named "${name}"\n`)
  const withoutUrl = await cli(['subscribe'])
  expect(withoutUrl.stderr).toContain('say where to POST')
})

it('takes its hooks out of Claude Code settings again and leaves everyone else’s', async () => {
  const settings = join(userHome(), '.claude', 'settings.json')
  mkdirSync(join(userHome(), '.claude'), { recursive: true })
  const theirs = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo theirs' }] }
  writeFileSync(settings, JSON.stringify({ model: 'opus', hooks: { PostToolUse: [theirs] } }))
  await cli(['install', 'claude', '--hooks'])
  expect(readFileSync(settings, 'utf8')).toContain('switchboard hook')
  const removed = await cli(['install', 'claude', '--hooks', '--remove'])
  expect(removed.stdout).toContain('hooks are out of')
  expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({
    model: 'opus',
    hooks: { PostToolUse: [theirs] },
  })
  expect((await cli(['install', 'claude', '--hooks', '--remove'])).stdout).toContain('no Switchboard hooks')
})

it('puts a project’s hooks in its git-ignored settings.local.json, moves an earlier install’s out of the shared one, and uninstall takes them out', async () => {
  const project = join(userHome(), 'api')
  const shared = join(project, '.claude', 'settings.json')
  mkdirSync(join(project, '.claude'), { recursive: true })
  // What an earlier install wrote into the file git shares: an HTTP hook carrying a token.
  const earlier = {
    hooks: {
      Stop: [
        {
          hooks: [
            {
              type: 'http',
              url: 'http://127.0.0.1:7420/api/claude-hooks/Stop',
              headers: { authorization: 'Bearer sbh_shared', 'x-switchboard-timeout': '10' },
            },
          ],
        },
      ],
    },
  }
  writeFileSync(shared, JSON.stringify(earlier))
  const installed = await cli(['install', 'claude', '--hooks', '--project', project])
  expect(installed.stdout).toContain(`taken out of ${shared}`)
  expect(readFileSync(shared, 'utf8')).toBe('{}')
  const local = join(project, '.claude', 'settings.local.json')
  expect(statSync(local).mode & 0o777).toBe(0o600)
  expect(readFileSync(local, 'utf8')).toContain('--unix-socket')
  expect(readFileSync(local, 'utf8')).not.toMatch(/sbh_|authorization/i)
  const out = await cli(['uninstall', '--json'], { PATH: '/usr/bin:/bin' })
  const steps = JSON.parse(out.stdout) as { steps: { step: string; detail: string }[] }
  expect(steps.steps.find((step) => step.step === 'hooks')?.detail).toContain(local)
  expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({})
})

it('completes commands, sub-commands and flags in bash', async () => {
  const { stdout: script } = await cli(['completion', 'bash'])
  const complete = async (line: string) => {
    const words = line.split(' ')
    const { stdout } = await run('bash', [
      '-c',
      `${script}\nCOMP_WORDS=(${words.map((w) => `"${w}"`).join(' ')}); COMP_CWORD=${words.length - 1}; _switchboard; echo "\${COMPREPLY[@]}"`,
    ])
    return stdout.trim().split(' ')
  }
  expect(await complete('switchboard stat')).toEqual(['status'])
  expect(await complete('switchboard sta')).toEqual(['start', 'status'])
  expect(await complete('switchboard sessions s')).toEqual(['show', 'send', 'stop'])
  expect(await complete('switchboard --home /x subscribe --')).toContain('--url')
  expect((await cli(['completion', 'fish'])).stderr).toBe(
    'switchboard: completion for "fish": bash and zsh are supported\n',
  )
})

it('refuses a second hub on a busy port or a busy home, saying what holds it', async () => {
  await stranger()
  const busyPort = await cli(['serve'])
  expect(busyPort.code).not.toBe(0)
  expect(busyPort.stderr).toMatch(
    /^switchboard: port \d+ on 127\.0\.0\.1 is in use by another program; pick another/,
  )
  noJsonLogs(busyPort.stderr)
  expect(busyPort.stderr.trim().split('\n')).toHaveLength(1)
})

it('refuses a second hub on a home whose hub runs on another port', async () => {
  await startHub()
  const other = await cli(['--port', String(world.home.port + 1), 'serve'])
  expect(other.code).not.toBe(0)
  expect(other.stderr).toBe(
    `switchboard: a hub of ${world.home.dir} already runs (pid ${world.home.hubPid()}, port ${world.home.port}); stop it first, or use another --home\n`,
  )
})

it('a channel that meets a stranger on the hub port exits with the reason instead of waiting', async () => {
  await stranger()
  const channel = await cli(['channel'])
  expect(channel.code).not.toBe(0)
  expect(channel.stderr).toContain(
    `switchboard: the server on 127.0.0.1:${world.home.port} is not this home's hub (it could not prove it holds the admin token); not connecting`,
  )
})

it('open --qr gives a phone the hub’s network address, or says in one line why a phone cannot reach it', async () => {
  const loopback = await startHub()
  const local = await cli(['open', '--qr'])
  expect(local.code).toBe(0)
  expect(local.stdout).toContain(`http://127.0.0.1:${world.home.port}/signin?token=`)
  expect(local.stdout).toMatch(/[▀▄█]{8}/) // the QR code, still drawn
  expect(local.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(
      /^switchboard: .*a phone cannot open this link.*switchboard serve --host 0\.0\.0\.0/,
    ),
  ])
  // The link for this machine's own browser is unchanged, and says nothing of phones.
  const printed = await cli(['open', '--print'])
  expect(printed.stdout).toContain(`http://127.0.0.1:${world.home.port}/signin?token=`)
  expect(printed.stderr).toBe('')

  const exited = new Promise((resolve) => loopback.once('exit', resolve))
  loopback.kill('SIGTERM')
  await exited
  spawn(process.execPath, [CLI, 'serve', '--host', '0.0.0.0'], { env: world.home.env, stdio: 'ignore' })
  await world.home.waitForHub()
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address
  const phone = await cli(['open', '--qr'])
  expect(phone.code).toBe(0)
  if (!lan) {
    expect(phone.stderr).toMatch(/no network address a phone could use/)
    return
  }
  expect(phone.stderr).toBe('')
  // Beyond loopback the hub speaks TLS: the link is https, and names the certificate to compare.
  const fingerprint = (JSON.parse((await cli(['status', '--json'])).stdout) as { fingerprint: string })
    .fingerprint
  const url = /(https:\/\/\S+)/.exec(phone.stdout)?.[1] as string
  expect(url).toMatch(
    new RegExp(
      `^https://${lan.replaceAll('.', '\\.')}:${world.home.port}/signin\\?token=\\S+#/\\?sha256=${fingerprint}$`,
    ),
  )
  expect(phone.stdout).toContain(`certificate: sha256:${fingerprint}`)
  // It is the hub's own link, and works from that address, where the hub shows that certificate.
  const signin = await new Promise<{ status: number; shown: string }>((resolve, reject) => {
    const req = httpsRequest(url, { rejectUnauthorized: false }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        shown: fingerprintOf((res.socket as TLSSocket).getPeerCertificate()),
      })
      res.resume()
    })
    req.on('error', reject)
    req.end()
  })
  expect(signin).toEqual({ status: 200, shown: fingerprint })
})

it('tells a person what happened in plain lines, never JSON logs', async () => {
  const peers = await cli(['peers'])
  expect(peers.code).toBe(0)
  noJsonLogs(peers.stderr)
  expect(peers.stderr).toContain('switchboard: no hub answered; started one')

  writeFileSync(join(userHome(), 'not-a-folder'), '')
  const fileHome = await cli(['--home', join(userHome(), 'not-a-folder'), 'source', 'list'])
  expect(fileHome.code).not.toBe(0)
  expect(fileHome.stderr).toBe(
    `switchboard: the Switchboard home ${join(userHome(), 'not-a-folder')} is a file, not a folder (--home or SWITCHBOARD_HOME)\n`,
  )
  // A reader that stops early (head) is no error, and no stack trace.
  const { stdout, stderr } = await run('bash', [
    '-c',
    `set -o pipefail; node ${CLI} completion bash | head -c 10`,
  ])
  expect(stdout).toBe('# switchbo')
  expect(stderr).toBe('')
})

it('names a bad database, lease, admin token, address or hub list in one line, and exits non-zero', async () => {
  const down = await cli(['--database-url', 'postgres://127.0.0.1:1/switchboard', 'serve'])
  expect(down.code).not.toBe(0)
  expect(down.stderr.trim()).toBe(
    'switchboard: cannot use the database postgres://127.0.0.1:1/switchboard: connect ECONNREFUSED 127.0.0.1:1',
  )
  const wrong = await cli(['status'], { SWITCHBOARD_DATABASE_URL: 'mysql://db/switchboard' })
  expect(wrong.stderr.trim()).toBe(
    'switchboard: SWITCHBOARD_DATABASE_URL: a database URL starts with postgres:// or postgresql://',
  )
  // The password never shows.
  const secret = await cli(['--database-url', 'postgres://sb:hunter2@127.0.0.1:1/db', 'serve'])
  expect(secret.stderr).toContain('postgres://sb:***@127.0.0.1:1/db')
  expect(secret.stderr).not.toContain('hunter2')
  const lease = await cli(['serve'], { SWITCHBOARD_LEASE_MS: 'soon' })
  expect(lease.stderr.trim()).toBe(
    'switchboard: SWITCHBOARD_LEASE_MS: "soon" is not a whole number of milliseconds from 400 to 600000',
  )
  const weak = await cli(['status'], { SWITCHBOARD_ADMIN_TOKEN: 'hunter2' })
  expect(weak.stderr.trim()).toBe(
    'switchboard: SWITCHBOARD_ADMIN_TOKEN: must be at least 24 characters (openssl rand -hex 24 makes one)',
  )
  const advertise = await cli(['serve'], { SWITCHBOARD_ADVERTISE: 'hub-a' })
  expect(advertise.stderr.trim()).toBe('switchboard: SWITCHBOARD_ADVERTISE: "hub-a" is not host:port')
  const hubs = await cli(['status'], { SWITCHBOARD_HUBS: '127.0.0.1:7420,nowhere' })
  expect(hubs.code).not.toBe(0)
  expect(hubs.stderr.trim()).toBe(
    'switchboard: SWITCHBOARD_HUBS: "nowhere" is not host:port (hubs are separated by commas)',
  )
})

it('counts no unused sign-in link as an open decision, in status or on the Hub page', async () => {
  await startHub()
  await cli(['open', '--print'])
  const link = new URL(/(http:\/\/\S+)/.exec((await cli(['open', '--print'])).stdout)?.[1] as string)
  const json = JSON.parse((await cli(['status', '--json'])).stdout)
  expect(json.openDecisions).toBe(0)
  expect((await cli(['status'])).stdout).not.toMatch(/open decisions: [1-9]/)
  const signedIn = await fetch(`${link.origin}/api/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switchboard': '1' },
    body: JSON.stringify({ token: link.searchParams.get('token') }),
  })
  const { key } = (await signedIn.json()) as { key: string }
  const health = await fetch(`${link.origin}/api/status`, { headers: { authorization: `Bearer ${key}` } })
  expect(((await health.json()) as { openDecisions: number }).openDecisions).toBe(0)
})

it('source rotate gives a source a new secret, printed once; the old one is refused from then on', async () => {
  await startHub()
  const old = await world.home.addSource('ci')
  const post = (secret: string) =>
    fetch(`${world.home.url}/hooks/ci`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: 'build failed',
    })
  expect((await post(old)).status).toBe(202)
  const rotated = await cli(['source', 'rotate', 'ci'])
  expect(rotated.code).toBe(0)
  const secret = /secret: (\S+)/.exec(rotated.stdout)?.[1] as string
  expect(secret).toMatch(/^sbw_/)
  expect(secret).not.toBe(old)
  expect((await post(old)).status).toBe(401)
  expect((await post(secret)).status).toBe(202)
  // The secret is shown when it is made, and never listed.
  expect((await cli(['source', 'list'])).stdout).not.toContain(secret)
  expect((await cli(['source', 'list', '--json'])).stdout).not.toContain(secret)
  const missing = await cli(['source', 'rotate', 'nope'])
  expect(missing.code).toBe(2)
  expect(missing.stderr).toBe('switchboard: no source named "nope"\n')
})

it('lists sources, senders, pairing requests, peers and dead letters as JSON for scripts', async () => {
  await startHub()
  await world.home.addSource('ci')
  await world.home.addSender('alice', true)
  expect(JSON.parse((await cli(['source', 'list', '--json'])).stdout)).toEqual([
    expect.objectContaining({ name: 'ci', topic: 'ci', preset: 'generic', deliveryHeader: null }),
  ])
  expect((await cli(['sender', 'list'])).stdout).toBe('alice\tallowed\toperator\t-\n')
  expect(JSON.parse((await cli(['sender', 'list', '--json'])).stdout)).toEqual([
    expect.objectContaining({ name: 'alice', status: 'allowed', operator: true }),
  ])
  const asked = (await (await fetch(`${world.home.url}/pair`, { method: 'POST' })).json()) as { code: string }
  expect(JSON.parse((await cli(['pair', '--list', '--json'])).stdout)).toEqual([
    expect.objectContaining({ code: asked.code, address: '127.0.0.1' }),
  ])
  expect(JSON.parse((await cli(['peers', '--json'])).stdout)).toEqual([])
  expect((await cli(['send', 'nobody', 'hello'])).code).not.toBe(0)
  expect(JSON.parse((await cli(['dead-letters', '--json'])).stdout)).toEqual([
    expect.objectContaining({ kind: 'peer', target: 'nobody', reason: 'no peer by that name' }),
  ])
})
