// The hub's reading of a session's transcript for the hooks rung: only what Claude Code writes after a
// hook's answer, a bounded amount a look, and nothing it was pointed at that is not a regular file of
// Claude Code's projects or of the hub's own user.
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { HookTranscript, type TranscriptPlace } from './hook-transcript.js'

let root: string
let place: TranscriptPlace
const uid = process.getuid?.() ?? null

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hook-transcript-'))
  place = { projects: join(root, 'config', 'projects'), uid }
  mkdirSync(join(place.projects, '-work-api'), { recursive: true })
})

afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

const context = (id: string, at: string) =>
  `${JSON.stringify({
    type: 'attachment',
    attachment: {
      type: 'hook_additional_context',
      content: [`<channel source="switchboard" event_id="${id}">x</channel>`],
      hookName: 'UserPromptSubmit',
      hookEvent: 'UserPromptSubmit',
    },
    timestamp: at,
  })}\n`

function reader(path: string | undefined, where = place, lookBytes?: number) {
  const seen: string[] = []
  const transcript = new HookTranscript(
    path,
    where,
    (id, mark) => seen.push(`${id} ${mark}`),
    'api',
    lookBytes,
  )
  return { transcript, seen }
}

it('reads only what Claude Code writes after the hook answered, a line split in two included', async () => {
  const file = join(place.projects, '-work-api', 's.jsonl')
  writeFileSync(file, context('ev_before', '2026-01-01T00:00:00.000Z'))
  const { transcript, seen } = reader(file)
  await transcript.begin()
  const line = context('ev_after', '2026-01-01T00:00:01.000Z')
  appendFileSync(file, line.slice(0, 50))
  await transcript.look()
  expect(seen).toEqual([])
  appendFileSync(file, line.slice(50))
  await transcript.look()
  expect(seen).toEqual(['ev_after in_context'])
  expect(transcript.reading.state('ev_before')).toBe('absent')
})

it('reads a file that appears after the hook answered from its start', async () => {
  const file = join(place.projects, '-work-api', 'late.jsonl')
  const { transcript, seen } = reader(file)
  await transcript.begin()
  expect(transcript.why(0)).toMatch(/transcript .*late\.jsonl was not found/)
  writeFileSync(file, context('ev_a', '2026-01-01T00:00:01.000Z'))
  await transcript.look()
  expect(seen).toEqual(['ev_a in_context'])
})

it('reads at most its share a look, and goes on from there at the next', async () => {
  const file = join(place.projects, '-work-api', 's.jsonl')
  writeFileSync(file, '')
  const { transcript, seen } = reader(file, place, 64)
  await transcript.begin()
  const lines = [context('ev_1', '2026-01-01T00:00:01.000Z'), context('ev_2', '2026-01-01T00:00:02.000Z')]
  appendFileSync(file, lines.join(''))
  const size = lines.join('').length
  let looks = 0
  while (seen.length < 2 && looks < 100) {
    await transcript.look()
    looks++
  }
  expect(seen).toEqual(['ev_1 in_context', 'ev_2 in_context'])
  expect(looks).toBe(Math.ceil(size / 64))
})

it('says why an event did not show: the transcript went on without it, or said nothing since', async () => {
  const file = join(place.projects, '-work-api', 's.jsonl')
  writeFileSync(file, '')
  const { transcript } = reader(file)
  await transcript.begin()
  await transcript.look()
  expect(transcript.why(Date.parse('2026-01-01T00:00:00.000Z'))).toMatch(
    /said nothing since the hook answered/,
  )
  appendFileSync(file, `${JSON.stringify({ type: 'last-prompt', timestamp: '2026-01-01T00:00:05.000Z' })}\n`)
  await transcript.look()
  expect(transcript.why(Date.parse('2026-01-01T00:00:00.000Z'))).toMatch(/went on without it/)
})

it('reads no link, FIFO or folder, no relative path, and says so', async () => {
  const real = join(root, 'real.jsonl')
  writeFileSync(real, '')
  const link = join(place.projects, '-work-api', 'link.jsonl')
  symlinkSync(real, link)
  const fifo = join(place.projects, '-work-api', 'fifo.jsonl')
  execFileSync('mkfifo', [fifo])
  const folder = join(place.projects, '-work-api', 'folder.jsonl')
  mkdirSync(folder)
  for (const [path, why] of [
    [link, /link\.jsonl: a link, not a regular file/],
    [fifo, /fifo\.jsonl: not a regular file/],
    [folder, /folder\.jsonl: not a regular file/],
    ['relative/s.jsonl', /named relative\/s\.jsonl, not an absolute path/],
    [undefined, /the hook's input named no transcript/],
  ] as const) {
    const { transcript, seen } = reader(path)
    await transcript.begin()
    appendFileSync(real, context('ev_x', '2026-01-01T00:00:01.000Z'))
    await transcript.look()
    expect(seen).toEqual([])
    expect(transcript.why(0)).toMatch(why)
  }
})

it("reads a file outside Claude Code's projects only when it is the hub user's own", async () => {
  const outside = join(root, 'elsewhere.jsonl')
  writeFileSync(outside, '')
  // As if the hub ran as another user than the file's owner.
  const stranger = { ...place, uid: (uid ?? 0) + 1 }
  const refused = reader(outside, stranger)
  await refused.transcript.begin()
  expect(refused.transcript.why(0)).toMatch(
    /elsewhere\.jsonl: neither under .*projects nor owned by the hub's user/,
  )
  const own = reader(outside)
  await own.transcript.begin()
  appendFileSync(outside, context('ev_own', '2026-01-01T00:00:01.000Z'))
  await own.transcript.look()
  expect(own.seen).toEqual(['ev_own in_context'])
  // Under projects/, whoever owns it.
  const inside = join(place.projects, '-work-api', 's.jsonl')
  writeFileSync(inside, '')
  const anyOwner = reader(inside, stranger)
  await anyOwner.transcript.begin()
  appendFileSync(inside, context('ev_in', '2026-01-01T00:00:01.000Z'))
  await anyOwner.transcript.look()
  expect(anyOwner.seen).toEqual(['ev_in in_context'])
})
