import { expect, it } from 'vitest'
import { phoneLink } from './phone-link.js'

const LINK = 'http://127.0.0.1:7420/signin?token=abc'
const mac = '00:00:00:00:00:00'
const lo = {
  address: '127.0.0.1',
  netmask: '255.0.0.0',
  family: 'IPv4',
  mac,
  internal: true,
  cidr: null,
} as const
const lan = { ...lo, address: '192.168.1.20', netmask: '255.255.255.0', internal: false } as const
const v6 = {
  ...lo,
  family: 'IPv6',
  address: 'fd00::2',
  netmask: 'ffff::',
  internal: false,
  scopeid: 0,
} as const
const linkLocal = { ...v6, address: 'fe80::1' } as const

it('says why a hub on loopback cannot be reached from a phone, and how to change that', () => {
  for (const bound of ['127.0.0.1', 'localhost', '::1'])
    expect(phoneLink(LINK, { host: bound, fingerprint: null }, { lo: [lo], eth0: [lan] })).toEqual({
      unreachable: expect.stringContaining('switchboard serve --host 0.0.0.0'),
    })
})

it("uses this machine's network address for a hub on every interface, IPv4 first", () => {
  expect(
    phoneLink(LINK, { host: '0.0.0.0', fingerprint: null }, { lo: [lo], eth0: [linkLocal, v6, lan] }),
  ).toEqual({
    url: 'http://192.168.1.20:7420/signin?token=abc',
  })
  expect(phoneLink(LINK, { host: '::', fingerprint: null }, { lo: [lo], eth0: [linkLocal, v6] })).toEqual({
    url: 'http://[fd00::2]:7420/signin?token=abc',
  })
  expect(phoneLink(LINK, { host: '0.0.0.0', fingerprint: null }, { lo: [lo], eth0: [linkLocal] })).toEqual({
    unreachable: expect.stringContaining('no network address'),
  })
})

it('uses the address the hub is bound to', () => {
  expect(
    phoneLink('http://10.0.0.5:7420/signin?token=abc', { host: '10.0.0.5', fingerprint: null }, {}),
  ).toEqual({
    url: 'http://10.0.0.5:7420/signin?token=abc',
  })
})

it('gives a hub that speaks TLS an https link whose fragment names its certificate, for the person to compare', () => {
  const fingerprint = 'ab'.repeat(32)
  expect(phoneLink(LINK, { host: '0.0.0.0', fingerprint }, { lo: [lo], eth0: [lan] })).toEqual({
    url: `https://192.168.1.20:7420/signin?token=abc#/?sha256=${fingerprint}`,
  })
})
