import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveSettings } from './resolve.js'
import { showSettings } from './show.js'

function homeWith(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-settings-'))
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
  return dir
}

it('takes a list, a number, a boolean and a path from text, and a path in config.json from the home', () => {
  const home = homeWith({ tlsCert: 'tls/hub.crt', tlsKey: '/etc/hub.key' })
  const env = {
    SWITCHBOARD_HUBS: ` 127.0.0.1:7421 ,, [::1]:7422#sha256:${'AB'.repeat(32)}`,
    SWITCHBOARD_RETENTION_DAYS: '0.5',
    SWITCHBOARD_DEBUG: 'yes',
    SWITCHBOARD_LOG_FILE: 'logs/x.log',
  }
  const { values, problems } = resolveSettings({ home }, env, '/work')
  expect(problems).toEqual([])
  expect(values.hubs).toEqual([
    { host: '127.0.0.1', port: 7421 },
    { host: '::1', port: 7422, fingerprint: 'ab'.repeat(32) },
  ])
  expect(values.retentionDays).toBe(0.5)
  expect(values.debug).toBe(true)
  expect(values.logFile).toBe('/work/logs/x.log')
  expect(values.tlsCert).toBe(join(home, 'tls/hub.crt'))
})

it('names the place of a certificate given without its key, and of insecure given with both', () => {
  const home = homeWith({ tlsCert: '/c.pem' })
  const file = join(home, 'config.json')
  expect(resolveSettings({ home }, {}).problems).toEqual([
    `${file}: tlsCert and tlsKey go together: the certificate and its key, both PEM files`,
  ])
  expect(resolveSettings({ home, insecure: true }, { SWITCHBOARD_TLS_KEY: '/k.pem' }).problems).toEqual([
    `--insecure is plain HTTP; it cannot go with tlsCert in ${file} and SWITCHBOARD_TLS_KEY`,
  ])
  // A certificate refused on its own is not also said to lack its key.
  expect(resolveSettings({ home: homeWith(), tlsCert: '' }, {}).problems).toEqual(['--tls-cert: a PEM file'])
})

it('refuses what config.json cannot hold, a line per key, and a file that is not one object', () => {
  const home = homeWith({ home: '/x', prot: 1, channelName: 'a' })
  const file = join(home, 'config.json')
  expect(resolveSettings({ home }, {}).problems).toEqual([
    `${file}: home: not a config.json key (config.json is in the home, so it cannot say where the home is)`,
    `${file}: prot: no such setting`,
    `${file}: channelName: not a config.json key (each session has its own, and config.json is the whole home's)`,
  ])
  const list = homeWith([7420])
  expect(resolveSettings({ home: list }, {}).problems).toEqual([
    `${join(list, 'config.json')}: the settings are one JSON object, e.g. {"port": 7420}`,
  ])
})

describe('precedence: flag > variable > config.json > default', () => {
  const home = homeWith({ port: 7001, retentionDays: 7 })
  const file = join(home, 'config.json')

  it('takes each setting from the first place that has it, and says which', () => {
    const env = { SWITCHBOARD_PORT: '7002', SWITCHBOARD_LEASE_MS: '2000' }
    const { values, origins, problems } = resolveSettings({ home, port: '7003' }, env)
    expect(problems).toEqual([])
    expect([values.port, origins.port]).toEqual([7003, { from: 'flag', where: '--port' }])
    expect([values.leaseMs, origins.leaseMs]).toEqual([
      2000,
      { from: 'variable', where: 'SWITCHBOARD_LEASE_MS' },
    ])
    expect([values.retentionDays, origins.retentionDays]).toEqual([7, { from: 'config.json', where: file }])
    expect([values.maxBodyBytes, origins.maxBodyBytes]).toEqual([65536, { from: 'default', where: null }])
  })

  it('lets a variable win over config.json once no flag is given', () => {
    const { values, origins } = resolveSettings({ home }, { SWITCHBOARD_PORT: '7002' })
    expect([values.port, origins.port.from]).toEqual([7002, 'variable'])
    expect(resolveSettings({ home }, {}).values.port).toBe(7001)
  })

  it('counts an empty variable as unset, so config.json or the default stands', () => {
    const { values, origins, problems } = resolveSettings(
      { home },
      { SWITCHBOARD_PORT: ' ', SWITCHBOARD_LEASE_MS: '' },
    )
    expect(problems).toEqual([])
    expect([values.port, origins.port.from]).toEqual([7001, 'config.json'])
    expect([values.leaseMs, origins.leaseMs.from]).toEqual([10_000, 'default'])
  })

  it('takes the home itself from a flag over a variable, and reads config.json from that home', () => {
    const other = homeWith({ port: 7100 })
    const { values, origins } = resolveSettings({ home: other }, { SWITCHBOARD_HOME: home })
    expect([values.home, origins.home.from, values.port]).toEqual([other, 'flag', 7100])
    expect(resolveSettings({}, { SWITCHBOARD_HOME: home }).values.port).toBe(7001)
  })
})

describe('a bad value: one line naming the setting and where it came from', () => {
  it('names the flag, the variable, or config.json and its key', () => {
    const home = homeWith({ leaseMs: 5, allowedHosts: 'a.example' })
    const file = join(home, 'config.json')
    const env = { SWITCHBOARD_RETENTION_DAYS: 'soon', SWITCHBOARD_LOG_LEVEL: 'loud' }
    const { problems, refused, values } = resolveSettings({ home, port: '99999' }, env)
    expect(problems).toEqual([
      '--port: port must be between 1 and 65535',
      `${file}: allowedHosts: a list: ["…", "…"] in config.json, comma-separated in a flag or a variable`,
      'SWITCHBOARD_RETENTION_DAYS: "soon" is not a number of days above 0, at most 36500',
      `${file}: leaseMs: 5 is not a whole number of milliseconds from 400 to 600000`,
      'SWITCHBOARD_LOG_LEVEL: "loud" is not one of trace, debug, info, warn, error, fatal, silent',
    ])
    for (const problem of problems) expect(problem).not.toContain('\n')
    // A refused setting holds its default, marked refused, so nothing runs on half a value.
    expect([...refused].sort()).toEqual(['allowedHosts', 'leaseMs', 'logLevel', 'port', 'retentionDays'])
    expect([values.port, values.leaseMs, values.logLevel]).toEqual([7420, 10_000, 'info'])
  })

  it('names the place of an item in a list, and which item', () => {
    const home = homeWith({ sessionEnv: ['GITHUB_TOKEN', 'NOT-A-NAME'] })
    expect(resolveSettings({ home }, { SWITCHBOARD_HUBS: '127.0.0.1:7421,nowhere' }).problems).toEqual([
      `${join(home, 'config.json')}: sessionEnv.1: "NOT-A-NAME" is not an environment variable name`,
      'SWITCHBOARD_HUBS: "nowhere" is not host:port (hubs are separated by commas)',
    ])
  })

  it('says a config.json that is no JSON in one line, and still resolves the rest', () => {
    const home = homeWith()
    writeFileSync(join(home, 'config.json'), '{"port": 7001,')
    const { problems, values } = resolveSettings({ home }, { SWITCHBOARD_PORT: '7002' })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(new RegExp(`^${join(home, 'config.json')}: not valid JSON \\(.+\\)$`))
    expect(values.port).toBe(7002)
  })
})

describe('secrets', () => {
  const token = 'a-secret-admin-token-0123456789'
  const url = 'postgres://hub:hunter2-password@db.internal:5432/switchboard'

  it('never shows the admin token or the database password, from any place', () => {
    const home = homeWith({ adminToken: token, databaseUrl: url })
    chmodSync(join(home, 'config.json'), 0o600)
    for (const env of [{}, { SWITCHBOARD_ADMIN_TOKEN: token, SWITCHBOARD_DATABASE_URL: url }]) {
      const resolution = resolveSettings({ home }, env)
      expect(resolution.problems).toEqual([])
      expect(resolution.values.adminToken).toBe(token)
      const shown = showSettings(resolution)
      const text = JSON.stringify(shown)
      expect(text).not.toContain(token)
      expect(text).not.toContain('hunter2')
      const byName = Object.fromEntries(shown.map((s) => [s.name, s.value]))
      expect(byName.adminToken).toBe('(hidden)')
      expect(byName.databaseUrl).toBe('postgres://hub:***@db.internal:5432/switchboard')
    }
  })

  it('never quotes a refused secret in its message', () => {
    const short = 'short-secret'
    const { problems } = resolveSettings(
      { home: homeWith(), databaseUrl: 'mysql://u:hunter2@db/x' },
      { SWITCHBOARD_ADMIN_TOKEN: short },
    )
    expect(problems).toEqual([
      '--database-url: a database URL starts with postgres:// or postgresql://',
      'SWITCHBOARD_ADMIN_TOKEN: must be at least 24 characters (openssl rand -hex 24 makes one)',
    ])
  })

  it('refuses an admin token in a config.json others may read', () => {
    const home = homeWith({ adminToken: token })
    const file = join(home, 'config.json')
    chmodSync(file, 0o644)
    expect(resolveSettings({ home }, {}).problems).toEqual([
      `${file}: adminToken: a file holding a secret must be its owner's alone (chmod 600 ${file})`,
    ])
  })

  it('refuses a transcription key in a config.json others may read, and never shows it', () => {
    const key = 'sk-transcription-secret-0123'
    const home = homeWith({ transcriptionKey: key })
    const file = join(home, 'config.json')
    chmodSync(file, 0o644)
    expect(resolveSettings({ home }, {}).problems).toEqual([
      `${file}: transcriptionKey: a file holding a secret must be its owner's alone (chmod 600 ${file})`,
    ])
    chmodSync(file, 0o600)
    const resolution = resolveSettings({ home }, {})
    expect(resolution.values.transcriptionKey).toBe(key)
    expect(JSON.stringify(showSettings(resolution))).not.toContain(key)
  })
})

it('takes the push contact as a mailto: or https: address, and refuses anything else in one line', () => {
  expect(resolveSettings({ home: homeWith() }, {}).values.pushContact).toBe('mailto:switchboard@example.com')
  const https = { SWITCHBOARD_PUSH_CONTACT: 'https://shop.test/ops' }
  expect(resolveSettings({ home: homeWith() }, https).values.pushContact).toBe('https://shop.test/ops')
  const home = homeWith({ pushContact: 'mailto:ops@shop.test' })
  expect(resolveSettings({ home }, {}).values.pushContact).toBe('mailto:ops@shop.test')
  for (const wrong of ['ops@shop.test', 'http://shop.test/ops', 'mailto:', 'https://'])
    expect(resolveSettings({ home: homeWith(), pushContact: wrong }, {}).problems).toEqual([
      '--push-contact: a mailto: or https: address push services may write to (mailto:you@example.org)',
    ])
})

describe("a decision's timeout", () => {
  it('takes a duration as people write it, and refuses anything else in one line', () => {
    const home = homeWith({ decisionTimeout: '10m', decisionTimeoutOutcome: 'deny' })
    const { values, problems } = resolveSettings({ home, decisionWarning: '90s' }, {})
    expect(problems).toEqual([])
    expect(values).toMatchObject({
      decisionTimeout: '10m',
      decisionTimeoutOutcome: 'deny',
      decisionWarning: '90s',
    })
    expect(resolveSettings({ home: homeWith() }, { SWITCHBOARD_DECISION_TIMEOUT: 'soon' }).problems).toEqual([
      'SWITCHBOARD_DECISION_TIMEOUT: "soon" is not a duration such as 90s, 10m or 1h (at most 24h), or off',
    ])
    expect(resolveSettings({ home: homeWith(), decisionTimeoutOutcome: 'allow' }, {}).problems).toEqual([
      '--decision-timeout-outcome: "allow" is not deny or terminal',
    ])
  })

  it('refuses a timeout that could never do what it says, naming where it came from', () => {
    const home = homeWith()
    expect(resolveSettings({ home, decisionTimeoutOutcome: 'deny' }, {}).problems).toEqual([
      '--decision-timeout-outcome: "deny" needs a decisionTimeout to run out; it is off',
    ])
    expect(
      resolveSettings(
        { home, decisionTimeout: '1m', decisionTimeoutOutcome: 'deny', decisionWarning: '2m' },
        {},
      ).problems,
    ).toEqual(['--decision-warning: 2m is not before the end of a 1m decisionTimeout'])
    // A terminal's dialog goes back at hookWaitSeconds (300) anyway, and a driven session has no terminal.
    expect(resolveSettings({ home, decisionTimeout: '10m' }, {}).problems).toEqual([
      `--decision-timeout: 10m with the outcome "terminal" can never run out: a terminal's dialog goes back at hookWaitSeconds (300 s) first, and a driven session has no terminal`,
    ])
    // The default warning (1m) is not refused for a shorter timeout: it is just not sent.
    expect(
      resolveSettings({ home, decisionTimeout: '30s', decisionTimeoutOutcome: 'deny' }, {}).problems,
    ).toEqual([])
  })
})
