// The channel's pino-free logger writes the lines pino writes, so that a channel's log reads like
// every other Switchboard log.
import { pino } from 'pino'
import { afterEach, expect, it, vi } from 'vitest'
import type { Logger } from '../core/log.js'
import { channelLogger } from './channel-log.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const at = (logLevel: string) => () => channelLogger({ logFile: null, logLevel })

type Call = (log: Logger) => void
const boom = new Error('boom')

const calls: Call[] = [
  (log) => log.info({ subscriber: 'api', relay: false }, 'channel ready'),
  (log) => log.warn({ err: 'ECONNREFUSED' }, 'hub connection error'),
  (log) => log.error({ err: boom, event: 'ev_1' }, 'delivery failed'),
  (log) => log.child({ part: 'x' }).info('no fields'),
  (log) => log.debug({ hidden: true }, 'below the level'),
]

/** What each logger wrote for `calls`, as objects without the time. */
async function written(make: () => Promise<Logger>): Promise<unknown[]> {
  const lines: string[] = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk))
    return true
  })
  const log = await make()
  for (const call of calls) call(log)
  vi.restoreAllMocks()
  return lines.map((l) => {
    const { time, ...rest } = JSON.parse(l)
    expect(typeof time).toBe('number')
    return rest
  })
}

it('writes the lines pino would write', async () => {
  const ours = await written(at('info'))
  const theirs = await written(async () =>
    pino({ name: 'channel', base: { pid: process.pid } }, { write: (l: string) => process.stderr.write(l) }),
  )
  expect(ours).toEqual(theirs)
  expect(ours).toHaveLength(4)
})

it('keeps to the logLevel setting', async () => {
  expect(await written(at('error'))).toHaveLength(1)
  expect(await written(at('silent'))).toHaveLength(0)
})
