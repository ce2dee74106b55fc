// The rollout reader against a rollout file the real Codex CLI (0.171.0) wrote
// (test/fixtures/codex/rollout-steered.jsonl): a thread driven over `codex app-server`, its first turn
// `SLOW` (client id uuid-1), then, while that turn ran, `MID-START` sent with turn/start (uuid-2) and
// `MID-STEER` with turn/steer (uuid-3); Codex added both to the running turn.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { RolloutFile, RolloutReading } from './rollout.js'

const FIXTURE = join(import.meta.dirname, '../../../test/fixtures/codex/rollout-steered.jsonl')
const real = readFileSync(FIXTURE, 'utf8')
const lines = real.split('\n').filter(Boolean)

function confirmed(text: string, chunk = text.length): string[] {
  const ids: string[] = []
  const reading = new RolloutReading((id) => ids.push(id))
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += chunk) reading.take(bytes.subarray(at, at + chunk))
  return ids
}

const isModelInput = (line: string) => line.includes('"type":"response_item"')
const isUserEvent = (line: string) => line.includes('"type":"UserMessage"')

let dir: string | null = null
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = null
})

it('confirms each message sent with a client id, in the order Codex recorded them', () => {
  expect(confirmed(real)).toEqual(['uuid-1', 'uuid-2', 'uuid-3'])
})

it('reads the same from chunks cut anywhere', () => {
  for (const chunk of [1, 7, 4096]) expect(confirmed(real, chunk)).toEqual(['uuid-1', 'uuid-2', 'uuid-3'])
})

it("confirms nothing from Codex's event alone, nor from a model input no event names", () => {
  expect(confirmed(`${lines.filter((l) => !isModelInput(l)).join('\n')}\n`)).toEqual([])
  expect(confirmed(`${lines.filter((l) => !isUserEvent(l)).join('\n')}\n`)).toEqual([])
})

it('pairs an event only with a model input of its own text', () => {
  const changed = lines.map((l) => (isModelInput(l) ? l.replace('"MID-START"', '"MID-OTHER"') : l))
  expect(confirmed(`${changed.join('\n')}\n`)).toEqual(['uuid-1', 'uuid-3'])
})

it('reads a file as Codex appends to it, from where the thread opened, a line cut in two included', async () => {
  dir = mkdtempSync(join(tmpdir(), 'rollout-'))
  const path = join(dir, 'rollout.jsonl')
  const ids: string[] = []
  // Not there yet: read from its start once it is.
  const fresh = new RolloutFile(path, (id) => ids.push(id))
  await fresh.begin()
  const cut = real.indexOf('"MID-START"') + 4
  writeFileSync(path, real.slice(0, cut))
  await fresh.look()
  expect(ids).toEqual(['uuid-1'])
  appendFileSync(path, real.slice(cut))
  await fresh.look()
  expect(ids).toEqual(['uuid-1', 'uuid-2', 'uuid-3'])

  // A resumed thread's file: what it held when the thread opened is not read.
  const firstTurn = `${lines.slice(0, 9).join('\n')}\n`
  writeFileSync(path, firstTurn)
  const resumed: string[] = []
  const file = new RolloutFile(path, (id) => resumed.push(id))
  await file.begin()
  appendFileSync(path, real.slice(firstTurn.length))
  await file.look()
  expect(resumed).toEqual(['uuid-2', 'uuid-3'])
})
