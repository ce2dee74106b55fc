// The watch reads a transcript as it grows, a line at a time however it is split, and takes a queue
// record left by an earlier Claude Code process (a resumed session) as no queue at all.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { TranscriptWatch } from './transcript-watch.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const tag = (id: string) => `<channel source="s" event_id="${id}">x</channel>`
const line = (o: object) => `${JSON.stringify(o)}\n`

it('reports lines as they are appended, also a line written in two pieces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-'))
  dirs.push(dir)
  const file = join(dir, 's.jsonl')
  const seen: string[] = []
  const watch = new TranscriptWatch(
    () => [file],
    (id, mark) => seen.push(`${id} ${mark}`),
    0,
  )
  watch.refresh() // no file yet
  const user = line({ type: 'user', timestamp: new Date().toISOString(), message: { content: tag('ev_a') } })
  writeFileSync(file, user.slice(0, 40))
  watch.refresh()
  expect(seen).toEqual([])
  appendFileSync(file, user.slice(40))
  watch.refresh()
  expect(seen).toEqual(['ev_a in_context'])
  expect(watch.state('ev_a')).toBe('in_context')
  expect(watch.found).toBe(true)
})

it('takes a queue record older than its Claude Code process as absent, and a newer one as queued', () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-'))
  dirs.push(dir)
  const file = join(dir, 's.jsonl')
  const since = Date.parse('2026-01-01T00:01:00.000Z')
  writeFileSync(
    file,
    line({
      type: 'queue-operation',
      operation: 'enqueue',
      timestamp: '2026-01-01T00:00:00.000Z',
      content: tag('ev_old'),
    }) +
      line({
        type: 'queue-operation',
        operation: 'enqueue',
        timestamp: '2026-01-01T00:02:00.000Z',
        content: tag('ev_new'),
      }),
  )
  const seen: string[] = []
  const watch = new TranscriptWatch(
    () => [file],
    (id, mark) => seen.push(`${id} ${mark}`),
    since,
  )
  watch.refresh()
  expect(watch.state('ev_old')).toBe('absent')
  expect(watch.state('ev_new')).toBe('queued')
  expect(seen).toEqual(['ev_new queued'])
})

it("knows when Claude Code made the newest line, by the line's own time, never by a time quoted in it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-'))
  dirs.push(dir)
  const file = join(dir, 's.jsonl')
  const watch = new TranscriptWatch(
    () => [file],
    () => {},
    0,
  )
  watch.refresh()
  expect(watch.newestLineAt()).toBeNull()
  writeFileSync(
    file,
    line({
      type: 'user',
      message: { content: 'a sender wrote "timestamp":"2099-01-01T00:00:00.000Z" here' },
      timestamp: '2026-11-25T10:00:00.000Z',
    }) +
      line({
        type: 'assistant',
        message: { content: 'no channel tag in me' },
        timestamp: '2026-11-25T10:00:05.000Z',
      }),
  )
  watch.refresh()
  expect(watch.newestLineAt()).toBe(Date.parse('2026-11-25T10:00:05.000Z'))
})
