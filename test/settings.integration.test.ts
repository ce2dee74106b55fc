// Settings as a person meets them: each one given as a flag, a variable or a config.json key, one
// order between them, `switchboard config` saying what is in effect and where it came from, every
// mistake one line naming the setting and its place, and secrets never printed.
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { Setting } from '../src/core/settings/define.js'
import { flagName } from '../src/core/settings/resolve.js'
import { SETTING_NAMES, SETTINGS, type SettingName } from '../src/core/settings/table.js'
import { CLI, runCli } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

/** The CLI with this test's home in the environment (unless `env` says otherwise); never throws. */
function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { ...world.home.env, ...env })
}

interface Shown {
  value: unknown
  from: string
  where: string | null
  refused: boolean
}

async function effective(args: string[], env: Record<string, string> = {}) {
  const out = await cli(['config', '--json', ...args], env)
  const json = JSON.parse(out.stdout) as { settings: Record<SettingName, Shown>; problems: string[] }
  return { ...out, ...json }
}

const configFile = (settings: Record<string, unknown>, mode = 0o600) => {
  const file = join(world.home.dir, 'config.json')
  writeFileSync(file, JSON.stringify(settings))
  chmodSync(file, mode)
  return file
}

/** What every setting is given, in each place, and what `switchboard config` shows for it. */
const SAMPLES: Record<SettingName, { text: string; json?: unknown; shown: unknown }> = {
  home: { text: '', shown: '' }, // the test's own home, filled in below
  port: { text: '7999', json: 7999, shown: 7999 },
  host: { text: '0.0.0.0', json: '0.0.0.0', shown: '0.0.0.0' },
  allowedHosts: {
    text: 'a.example, b.example:8443',
    json: ['a.example', 'b.example:8443'],
    shown: ['a.example', 'b.example:8443'],
  },
  maxBodyBytes: { text: '2048', json: 2048, shown: 2048 },
  retentionDays: { text: '7', json: 7, shown: 7 },
  routing: { text: 'everything', json: 'everything', shown: 'everything' },
  sessionIdleMinutes: { text: '5', json: 5, shown: 5 },
  sessionEnv: { text: 'IS_SANDBOX,FOO', json: ['IS_SANDBOX', 'FOO'], shown: ['IS_SANDBOX', 'FOO'] },
  replyFileRoots: { text: '/srv/shared,/tmp', json: ['/srv/shared', '/tmp'], shown: ['/srv/shared', '/tmp'] },
  chatFileLimitMb: { text: '20', json: 20, shown: 20 },
  chatFileTypes: {
    text: 'image/*,application/pdf',
    json: ['image/*', 'application/pdf'],
    shown: ['image/*', 'application/pdf'],
  },
  transcriptionUrl: {
    text: 'http://127.0.0.1:8080/v1/audio/transcriptions',
    json: 'http://127.0.0.1:8080/v1/audio/transcriptions',
    shown: 'http://127.0.0.1:8080/v1/audio/transcriptions',
  },
  transcriptionKey: {
    text: 'sk-transcription-0123456789',
    json: 'sk-transcription-0123456789',
    shown: '(hidden)',
  },
  transcriptionModel: { text: 'large-v3', json: 'large-v3', shown: 'large-v3' },
  databaseUrl: {
    text: 'postgres://sb:hunter2@db.invalid/sb',
    json: 'postgres://sb:hunter2@db.invalid/sb',
    shown: 'postgres://sb:***@db.invalid/sb',
  },
  hubs: {
    text: '127.0.0.1:7421,[::1]:7422',
    json: ['127.0.0.1:7421', '[::1]:7422'],
    shown: ['127.0.0.1:7421', '[::1]:7422'],
  },
  leaseMs: { text: '1500', json: 1500, shown: 1500 },
  heartbeatMs: { text: '2500', json: 2500, shown: 2500 },
  platformLostMs: { text: '6000', json: 6000, shown: 6000 },
  routineRuns: { text: '2', json: 2, shown: 2 },
  githubToken: { text: 'ghp_settingstest0123456789', json: 'ghp_settingstest0123456789', shown: '(hidden)' },
  githubApiUrl: {
    text: 'https://github.example.com/api/v3',
    json: 'https://github.example.com/api/v3',
    shown: 'https://github.example.com/api/v3',
  },
  hookWaitSeconds: { text: '90', json: 90, shown: 90 },
  presenceSeconds: { text: '60', json: 60, shown: 60 },
  escalateSeconds: { text: '600', json: 600, shown: 600 },
  decisionTimeout: { text: '60s', json: '60s', shown: '60s' },
  decisionTimeoutOutcome: { text: 'deny', json: 'deny', shown: 'deny' },
  decisionWarning: { text: '20s', json: '20s', shown: '20s' },
  pushContact: {
    text: 'mailto:ops@shop.test',
    json: 'mailto:ops@shop.test',
    shown: 'mailto:ops@shop.test',
  },
  advertise: { text: 'hub-a.example:7420', json: 'hub-a.example:7420', shown: 'hub-a.example:7420' },
  adminToken: {
    text: 'shared-admin-token-0123456789abcdef',
    json: 'shared-admin-token-0123456789abcdef',
    shown: '(hidden)',
  },
  tlsCert: { text: '/etc/sb/hub.crt', json: '/etc/sb/hub.crt', shown: '/etc/sb/hub.crt' },
  tlsKey: { text: '/etc/sb/hub.key', json: '/etc/sb/hub.key', shown: '/etc/sb/hub.key' },
  insecure: { text: '1', json: true, shown: true },
  logFile: {
    text: '/var/log/sb/switchboard.log',
    json: '/var/log/sb/switchboard.log',
    shown: '/var/log/sb/switchboard.log',
  },
  logLevel: { text: 'warn', json: 'warn', shown: 'warn' },
  debug: { text: 'true', json: true, shown: true },
  listenGraceMs: { text: '250', json: 250, shown: 250 },
  confirmMs: { text: '1500', json: 1500, shown: 1500 },
  confirmTries: { text: '3', json: 3, shown: 3 },
  delivery: { text: 'message', json: 'message', shown: 'message' },
  channelName: { text: 'builder', json: 'builder', shown: 'builder' },
  channelAliases: { text: 'ci,deploy', json: ['ci', 'deploy'], shown: ['ci', 'deploy'] },
}

// insecure cannot go with a certificate: it is given on its own (with the home, so as not to read the user's).
const GROUPS: SettingName[][] = [SETTING_NAMES.filter((n) => n !== 'insecure'), ['home', 'insecure']]
const spec = (name: SettingName) => SETTINGS[name] as Setting

it('takes every setting as a flag, a variable and a config.json key, and says where each came from', async () => {
  SAMPLES.home = { text: world.home.dir, shown: world.home.dir }
  // Nothing of the test's own environment: each place on its own.
  const clear = Object.fromEntries(SETTING_NAMES.map((n) => [spec(n).variable, '']))
  for (const group of GROUPS) {
    rmSync(join(world.home.dir, 'config.json'), { force: true })
    const flags = group.flatMap((name) => {
      const s = spec(name)
      if (!s.flag) return []
      return s.flag.spec.includes('<') ? [flagName(s), SAMPLES[name].text] : [flagName(s)]
    })
    const byFlag = await effective(flags, clear)
    const variables = Object.fromEntries(group.map((name) => [spec(name).variable, SAMPLES[name].text]))
    const byVariable = await effective([], { ...clear, ...variables })
    const file = configFile(
      Object.fromEntries(group.filter((n) => spec(n).inFile).map((name) => [name, SAMPLES[name].json])),
    )
    const byFile = await effective([], { ...clear, SWITCHBOARD_HOME: world.home.dir })
    for (const out of [byFlag, byVariable, byFile]) {
      expect(out.problems).toEqual([])
      expect(out.code).toBe(0)
    }
    for (const name of group) {
      const s = spec(name)
      const { shown } = SAMPLES[name]
      if (s.flag)
        expect(byFlag.settings[name], name).toMatchObject({ value: shown, from: 'flag', where: flagName(s) })
      expect(byVariable.settings[name], name).toMatchObject({
        value: shown,
        from: 'variable',
        where: s.variable,
      })
      if (s.inFile)
        expect(byFile.settings[name], name).toMatchObject({ value: shown, from: 'config.json', where: file })
      // A setting without one of the three says why (the README prints it).
      if (!s.flag || !s.inFile) expect(s.why, name).toBeTruthy()
    }
  }
})

it('lets a flag win over a variable, a variable over config.json, config.json over the default', async () => {
  configFile({ port: 9000, host: '0.0.0.0', retentionDays: 7 })
  const env = { SWITCHBOARD_PORT: '9100', SWITCHBOARD_HOST: '127.0.0.2' }
  const { settings, code } = await effective(['--port', '9200'], env)
  expect(code).toBe(0)
  expect(settings.port).toMatchObject({ value: 9200, from: 'flag', where: '--port' })
  expect(settings.host).toMatchObject({ value: '127.0.0.2', from: 'variable', where: 'SWITCHBOARD_HOST' })
  expect(settings.retentionDays).toMatchObject({ value: 7, from: 'config.json' })
  expect(settings.leaseMs).toMatchObject({ value: 10_000, from: 'default', where: null })
  // An empty variable is one nobody set.
  expect((await effective([], { SWITCHBOARD_PORT: '' })).settings.port).toMatchObject({
    value: 9000,
    from: 'config.json',
  })

  // The same, as a person reads it: a line per setting, where it came from before the value.
  const text = await cli(['config', '--port', '9200'], env)
  expect(text.stdout).toMatch(/^port +--port +9200$/m)
  expect(text.stdout).toMatch(/^host +SWITCHBOARD_HOST +127\.0\.0\.2$/m)
  expect(text.stdout).toMatch(/^retentionDays +config\.json +7$/m)
  expect(text.stdout).toMatch(/^databaseUrl +default +none \(SQLite in the home\)$/m)
})

it('names a bad value in one line with the setting and its place, for config and for every command', async () => {
  const file = configFile({ port: 'x' })
  const fromFile = await cli(['status'], { SWITCHBOARD_PORT: '' })
  expect(fromFile.code).toBe(2)
  expect(fromFile.stderr).toBe(`switchboard: ${file}: port: port must be a number\n`)
  const fromVariable = await cli(['status'], { SWITCHBOARD_PORT: 'x' })
  expect(fromVariable.stderr).toBe('switchboard: SWITCHBOARD_PORT: port must be a number\n')
  const fromFlag = await cli(['--port', 'x', 'status'])
  expect(fromFlag.stderr).toBe('switchboard: --port: port must be a number\n')

  // switchboard config names them all, a line each, and still shows the rest.
  configFile({ retentionDays: 0, prot: 1, home: '/elsewhere' })
  const all = await cli(['config', '--lease-ms', 'soon', '--delivery', 'carrier-pigeon'], {
    SWITCHBOARD_LOG_LEVEL: 'loud',
    SWITCHBOARD_TLS_CERT: '/etc/sb/hub.crt',
  })
  expect(all.code).toBe(2)
  expect(all.stderr.split('\n').filter(Boolean).sort()).toEqual(
    [
      `switchboard: ${file}: prot: no such setting`,
      `switchboard: ${file}: home: not a config.json key (config.json is in the home, so it cannot say where the home is)`,
      `switchboard: ${file}: retentionDays: 0 is not a number of days above 0, at most 36500`,
      'switchboard: --lease-ms: "soon" is not a whole number of milliseconds from 400 to 600000',
      'switchboard: --delivery: "carrier-pigeon" is not channel or message',
      'switchboard: SWITCHBOARD_LOG_LEVEL: "loud" is not one of trace, debug, info, warn, error, fatal, silent',
      'switchboard: SWITCHBOARD_TLS_CERT and SWITCHBOARD_TLS_KEY go together: the certificate and its key, both PEM files',
    ].sort(),
  )
  expect(all.stdout).toMatch(/^leaseMs +--lease-ms +\(refused, see below\)$/m)
  expect(all.stdout).toMatch(/^port +SWITCHBOARD_PORT +\d+$/m)
})

it('never prints a secret: the admin token, the database password', async () => {
  const token = 'shared-admin-token-0123456789abcdef'
  const env = { SWITCHBOARD_ADMIN_TOKEN: token }
  const url = ['--database-url', 'postgres://sb:hunter2@db.invalid/sb']
  for (const args of [['config'], ['config', '--json']]) {
    const out = await cli([...url, ...args], env)
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('(hidden)')
    expect(out.stdout).toContain('postgres://sb:***@db.invalid/sb')
    expect(out.stdout + out.stderr).not.toContain(token)
    expect(out.stdout + out.stderr).not.toContain('hunter2')
  }
  // Nor when it is wrong.
  const short = await cli(['config'], { SWITCHBOARD_ADMIN_TOKEN: 'hunter2' })
  expect(short.stderr).toBe(
    'switchboard: SWITCHBOARD_ADMIN_TOKEN: must be at least 24 characters (openssl rand -hex 24 makes one)\n',
  )
  expect(short.stdout).not.toContain('hunter2')
  const badUrl = await cli(['config'], { SWITCHBOARD_DATABASE_URL: 'mysql://sb:hunter2@db/sb' })
  expect(badUrl.stderr).toBe(
    'switchboard: SWITCHBOARD_DATABASE_URL: a database URL starts with postgres:// or postgresql://\n',
  )
  expect(badUrl.stdout).not.toContain('hunter2')

  // config.json holds the token only when no one else can read it.
  const file = configFile({ adminToken: token }, 0o644)
  const loose = await cli(['status'])
  expect(loose.code).toBe(2)
  expect(loose.stderr).toBe(
    `switchboard: ${file}: adminToken: a file holding a secret must be its owner's alone (chmod 600 ${file})\n`,
  )
  chmodSync(file, 0o600)
  const { settings } = await effective([])
  expect(settings.adminToken).toMatchObject({ value: '(hidden)', from: 'config.json' })
})

it('reads settings without making anything: no home, no admin token', async () => {
  const nowhere = join(mkdtempSync(join(tmpdir(), 'switchboard-none-')), 'home')
  try {
    const out = await cli(['config'], { SWITCHBOARD_HOME: nowhere })
    expect(out.code).toBe(0)
    expect(out.stdout).toMatch(
      /^adminToken +default +none \(the home's admin-token file, made on first use\)$/m,
    )
    expect(existsSync(nowhere)).toBe(false)
  } finally {
    rmSync(join(nowhere, '..'), { recursive: true, force: true })
  }
})

it('gives the hub a setting that was config.json only as a flag, and one that was a variable only as config.json', async () => {
  // maxBodyBytes was config.json's alone; leaseMs was SWITCHBOARD_LEASE_MS's alone.
  configFile({ leaseMs: 'soon' })
  const refused = await cli(['serve'])
  expect(refused.stderr).toBe(
    `switchboard: ${join(world.home.dir, 'config.json')}: leaseMs: "soon" is not a whole number of milliseconds from 400 to 600000\n`,
  )
  configFile({ leaseMs: 2000 })
  // The home's clean-up stops it.
  spawn(process.execPath, [CLI, 'serve', '--max-body-bytes', '2048'], {
    env: world.home.env,
    stdio: 'ignore',
  })
  await world.home.waitForHub()
  // Through the hub just started (the CLI would start one with the defaults if none ran).
  const secret = await world.home.addSource('ci')
  const post = (bytes: number) =>
    fetch(`${world.home.url}/hooks/ci`, {
      method: 'POST',
      body: 'x'.repeat(bytes),
      headers: { authorization: `Bearer ${secret}` },
    })
  expect((await post(1000)).status).toBe(202)
  expect((await post(4000)).status).toBe(413)
})

it('says, per setting, where the running hub was started with another value than config resolves now', async () => {
  // The hub runs with the defaults; then a variable is set and config.json changed, as a person would.
  spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  await world.home.waitForHub()
  const pid = world.home.hubPid()
  configFile({ retentionDays: 7 })
  const env = { SWITCHBOARD_GITHUB_TOKEN: 'ghp_settingstest0123456789', SWITCHBOARD_LOG_LEVEL: 'debug' }

  const text = await cli(['config'], env)
  expect(text.code).toBe(0)
  expect(text.stdout).toMatch(/^retentionDays +config\.json +7 {2}\(the running hub: 30\)$/m)
  expect(text.stdout).toMatch(
    /^githubToken +SWITCHBOARD_GITHUB_TOKEN +\(hidden\) {2}\(the running hub: none\)$/m,
  )
  expect(text.stdout).toMatch(/^logLevel +SWITCHBOARD_LOG_LEVEL +debug {2}\(the running hub: info\)$/m)
  // A setting the hub does not run with (a channel's) is not compared; one that is the same says nothing.
  expect(text.stdout).toMatch(/^port +\S+ +\d+$/m)
  expect(text.stdout.trim().split('\n').at(-1)).toBe(
    `the running hub (pid ${pid}) was started with other values for retentionDays, logLevel, githubToken; restart it to use these: switchboard stop, then switchboard start`,
  )
  expect(text.stdout).not.toContain('ghp_settingstest')

  const { settings } = await effective([], env)
  expect(settings.retentionDays).toMatchObject({ value: 7, runningHub: 30 })
  expect(settings.port).not.toHaveProperty('runningHub')
  // Without a difference, nothing is said.
  rmSync(join(world.home.dir, 'config.json'))
  expect((await cli(['config'])).stdout).not.toContain('running hub')
})
