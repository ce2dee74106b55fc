// Where a channel or the CLI dials its own home's hub: the home's socket when its path fits, else TCP,
// over TLS pinned to what the hub recorded when it is bound beyond loopback.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type HubConfig, loadConfig, MAX_SOCKET_PATH, paths } from '../core/config.js'
import { localSocket, tcpTarget } from './hub-address.js'

const PIN = 'cd'.repeat(32)

function config(host: string, home = mkdtempSync(join(tmpdir(), 'sb-address-'))): HubConfig {
  return loadConfig({ home, port: '7420', host })
}

describe("dialling the home's hub", () => {
  it('uses the socket in the home when its path fits in a socket address, and TCP when it does not', () => {
    const short = config('127.0.0.1')
    expect(localSocket(short)).toBe(join(short.home, 'hub-7420.sock'))
    const deep = join(short.home, 'x'.repeat(MAX_SOCKET_PATH))
    expect(localSocket({ ...short, home: deep })).toBeUndefined()
  })

  it('dials a hub bound to loopback or to every interface in plain HTTP on loopback', () => {
    expect(tcpTarget(config('127.0.0.1'))).toEqual({ host: '127.0.0.1', port: 7420 })
    expect(tcpTarget(config('0.0.0.0'))).toEqual({ host: '127.0.0.1', port: 7420 })
    expect(tcpTarget(config('::1'))).toEqual({ host: '::1', port: 7420 })
  })

  it('dials a hub bound to a network address over TLS, pinned to the certificate it recorded', () => {
    const c = config('192.0.2.10')
    writeFileSync(paths.hubInfo(c.home), JSON.stringify({ pid: 1, port: 7420, fingerprint: PIN }))
    expect(tcpTarget(c)).toEqual({ host: '192.0.2.10', port: 7420, tls: { fingerprint: PIN } })
  })

  it("checks such a hub against this machine's CAs when it recorded no certificate, or hub.json is unreadable", () => {
    const none = config('192.0.2.10')
    expect(tcpTarget(none)).toEqual({ host: '192.0.2.10', port: 7420, tls: { fingerprint: null } })
    const garbled = config('192.0.2.10')
    writeFileSync(paths.hubInfo(garbled.home), '{"fingerprint": ')
    expect(tcpTarget(garbled)).toEqual({ host: '192.0.2.10', port: 7420, tls: { fingerprint: null } })
  })
})
