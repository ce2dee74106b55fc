import { describe, expect, it } from 'vitest'
import { readEvents } from './sse.ts'

type Seen = { name: string; data: string; id: string | null }

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
}

async function read(chunks: Uint8Array[]): Promise<Seen[]> {
  const seen: Seen[] = []
  await readEvents(body(chunks), (name, data, id) => seen.push({ name, data, id }))
  return seen
}

const bytes = (text: string) => new TextEncoder().encode(text)

/** The stream cut in two at `at` bytes, as a network may hand it over. */
const cutAt = (all: Uint8Array, at: number) => [all.slice(0, at), all.slice(at)]

describe('the dashboard reading a live stream', () => {
  const stream = (eol: string) =>
    [
      ': keep-alive',
      'event: line',
      'id: 41',
      'data: {"text":"héllo ✓"}',
      '',
      'event: partial',
      'id: 42',
      'data: first line',
      'data: second line',
      '',
      'data: unnamed',
      '',
      '',
    ].join(eol)
  const expected: Seen[] = [
    { name: 'line', data: '{"text":"héllo ✓"}', id: '41' },
    { name: 'partial', data: 'first line\nsecond line', id: '42' },
    { name: 'message', data: 'unnamed', id: null },
  ]

  for (const [eol, label] of [
    ['\n', 'LF'],
    ['\r\n', 'CRLF'],
    ['\r', 'CR'],
  ] as const) {
    it(`gets each event once, whole, with its id, however a ${label} stream is cut`, async () => {
      const all = bytes(stream(eol))
      for (let at = 0; at <= all.length; at++)
        expect(await read(cutAt(all, at)), `cut at ${at}`).toEqual(expected)
    })
  }

  it('gets the same events when every byte comes on its own', async () => {
    const all = bytes(stream('\r\n'))
    expect(await read([...all].map((b) => Uint8Array.of(b)))).toEqual(expected)
  })

  it('ignores comments and events with no data, and reads fields without a space or a value', async () => {
    const text = ': ping\n\nevent: turn\nid: 7\n\nevent:changed\ndata:{}\ndata\n\n'
    expect(await read([bytes(text)])).toEqual([{ name: 'changed', data: '{}\n', id: null }])
  })

  it('drops an event the stream ended in the middle of', async () => {
    expect(await read([bytes('data: whole\n\ndata: cut off\n')])).toEqual([
      { name: 'message', data: 'whole', id: null },
    ])
  })
})
