import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { checkHostAndOrigin, type HostRules } from './request-guard.js'

const asking = (host: string, origin?: string) =>
  ({ headers: { host, ...(origin ? { origin } : {}) } }) as unknown as IncomingMessage

describe('the Host and Origin a request must name', () => {
  it('refuses a name rebound to the hub after a good one, every time, whatever came before', () => {
    const rules: HostRules = { bound: '127.0.0.1', port: 7000, allowedHosts: [] }
    expect(() => checkHostAndOrigin(asking('localhost:7000'), rules)).not.toThrow()
    expect(() => checkHostAndOrigin(asking('attacker.example:7000'), rules)).toThrow(/is not this hub/)
    expect(() => checkHostAndOrigin(asking('localhost:7000'), rules)).not.toThrow()
    expect(() => checkHostAndOrigin(asking('attacker.example:7000'), rules)).toThrow(/is not this hub/)
  })

  it('checks a known Host again under the rules of a hub that moved to another port', () => {
    const before: HostRules = { bound: '127.0.0.1', port: 7000, allowedHosts: [] }
    const after: HostRules = { ...before, port: 7100 }
    expect(() => checkHostAndOrigin(asking('127.0.0.1:7000'), before)).not.toThrow()
    expect(() => checkHostAndOrigin(asking('127.0.0.1:7000'), after)).toThrow(/is not this hub/)
  })

  it('refuses a foreign page even with a Host already allowed', () => {
    const rules: HostRules = { bound: '127.0.0.1', port: 7000, allowedHosts: [] }
    expect(() => checkHostAndOrigin(asking('localhost:7000'), rules)).not.toThrow()
    expect(() => checkHostAndOrigin(asking('localhost:7000', 'https://attacker.example'), rules)).toThrow(
      /other origins/,
    )
  })
})
