import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type CliLine, checkCliLine, hostLineSchema } from './messages.js'
import { InvalidLineError, NdjsonReader, writeLine } from './ndjson.js'

function reader(max?: number) {
  const lines: CliLine[] = []
  const skipped: string[] = []
  const r = new NdjsonReader(
    checkCliLine,
    (l) => lines.push(l),
    (reason) => skipped.push(reason),
    max,
  )
  return { r, lines, skipped }
}

describe('NDJSON reader', () => {
  it('joins lines split across chunks, even inside a multi-byte character', () => {
    const { r, lines } = reader()
    const text = '{"type":"assistant","text":"héllo ✓"}\n{"type":"result"}\n'
    const bytes = Buffer.from(text)
    for (let i = 0; i < bytes.length; i += 3) r.push(bytes.subarray(i, i + 3))
    expect(lines).toEqual([{ type: 'assistant', text: 'héllo ✓' }, { type: 'result' }])
  })

  it('skips and counts garbage and lines without a type, and keeps going', () => {
    const { r, lines, skipped } = reader()
    r.push('not json\n{"no_type":1}\n\n{"type":"system","subtype":"init","future_field":{"x":1}}\n')
    expect(lines).toEqual([{ type: 'system', subtype: 'init', future_field: { x: 1 } }])
    expect(r.stats).toEqual({ lines: 1, skipped: 2 })
    expect(skipped[0]).toBe('not JSON')
  })

  it('keeps unknown message types whole', () => {
    const { r, lines } = reader()
    r.push('{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}\n')
    expect(lines[0]).toEqual({ type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } })
  })

  it('drops a line over the size limit without losing the next one', () => {
    const { r, lines, skipped } = reader(1024)
    r.push(`{"type":"big","x":"${'a'.repeat(2000)}`)
    r.push('"}\n{"type":"small"}\n')
    expect(skipped[0]).toMatch(/longer than 1024/)
    expect(lines.map((l) => l.type)).toEqual(['small'])
  })

  it('reads a long line cut into small chunks, and drops one that grows past the limit chunk by chunk', () => {
    const { r, lines, skipped } = reader(64 * 1024)
    const ok = `{"type":"long","x":"${'b'.repeat(50_000)}"}\n`
    const big = `{"type":"big","x":"${'c'.repeat(70_000)}"}\n{"type":"after"}\n`
    for (const text of [ok, big]) for (let i = 0; i < text.length; i += 100) r.push(text.slice(i, i + 100))
    expect(lines.map((l) => l.type)).toEqual(['long', 'after'])
    expect(skipped).toHaveLength(1)
    expect(skipped[0]).toMatch(/longer than 65536/)
  })

  it('reads a last line that has no newline when the stream ends', () => {
    const { r, lines } = reader()
    r.push('{"type":"result"}')
    expect(lines).toEqual([])
    r.end()
    expect(lines).toEqual([{ type: 'result' }])
  })
})

describe('NDJSON writer', () => {
  it('writes a valid user line', async () => {
    const out = new PassThrough()
    await writeLine(out, hostLineSchema, { type: 'user', message: { role: 'user', content: 'hi' } })
    expect(JSON.parse(String(out.read()))).toEqual({ type: 'user', message: { role: 'user', content: 'hi' } })
  })

  it('refuses a user line without the message wrapper, which would kill the CLI, and writes nothing', async () => {
    const out = new PassThrough()
    await expect(writeLine(out, hostLineSchema, { type: 'user', content: 'hi' })).rejects.toBeInstanceOf(
      InvalidLineError,
    )
    await expect(
      writeLine(out, hostLineSchema, { type: 'user', message: { role: 'user', content: '' } }),
    ).rejects.toThrow(/refused/)
    expect(out.read()).toBeNull()
  })
})
