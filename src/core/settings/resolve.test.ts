import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { resolveSettings } from './resolve.js'

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
