import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { recordingShown, shownEventId } from './recording-transport.js'

describe('recording what was shown', () => {
  it('names the event a channel notification shows, and nothing else: a rung-5 line is no showing', () => {
    expect(
      shownEventId({
        method: 'notifications/claude/channel',
        params: { content: 'x', meta: { event_id: 'ev_1' } },
      }),
    ).toBe('ev_1')
    expect(
      shownEventId({
        method: 'notifications/message',
        params: { data: 'New event ev_2 from ci (topic ci): call the inbox tool' },
      }),
    ).toBeNull()
    expect(shownEventId({ jsonrpc: '2.0', id: 1, result: {} })).toBeNull()
    expect(
      shownEventId({ method: 'notifications/claude/channel/permission', params: { request_id: 'abcde' } }),
    ).toBeNull()
  })

  it('records in the same step as the write, and not while bytes still wait in the stream', async () => {
    const recordedAtWrite: number[] = []
    const recorded: string[] = []
    let inPipe = true
    const transport = recordingShown(
      {
        async start() {},
        async close() {},
        send: (_message: JSONRPCMessage) => {
          recordedAtWrite.push(recorded.length)
          return Promise.resolve()
        },
      },
      (id) => recorded.push(id),
      () => inPipe,
    )
    const show = (id: string) =>
      transport.send({
        jsonrpc: '2.0',
        method: 'notifications/claude/channel',
        params: { content: '', meta: { event_id: id } },
      })
    const sending = show('ev_1')
    // recorded right after the write, before anything else could run
    expect(recordedAtWrite).toEqual([0])
    expect(recorded).toEqual(['ev_1'])
    await sending
    inPipe = false
    await show('ev_2')
    expect(recorded).toEqual(['ev_1'])
  })
})
