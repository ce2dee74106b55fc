import { expect, it } from 'vitest'
import { reachableAt } from './network.js'

const lan = {
  lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
  eth0: [{ address: '10.0.0.5', family: 'IPv4', internal: false }],
} as unknown as Parameters<typeof reachableAt>[2]

it('gives the other hubs an address they can reach: the bind address, or the network one for every interface', () => {
  expect(reachableAt('0.0.0.0', 7420, lan)).toBe('10.0.0.5:7420')
  expect(reachableAt('192.168.1.9', 7420, lan)).toBe('192.168.1.9:7420')
  expect(reachableAt('127.0.0.1', 7421, lan)).toBe('127.0.0.1:7421')
  expect(reachableAt('::', 7420, {})).toBe('127.0.0.1:7420') // no network: hubs on one machine
  expect(reachableAt('fd00::2', 7420, lan)).toBe('[fd00::2]:7420')
})
