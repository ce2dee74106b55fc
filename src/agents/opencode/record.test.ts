// OpenCode's record read as the hub reads it, from a real store: test/fixtures/opencode/opencode.db is
// what OpenCode 1.18.33 wrote (offline, against test/fakes/chat-completions.ts) for two sessions: in
// the first, `RUN:echo hi-from-the-record` (a bash call and its DONE) and then, resumed with
// `opencode run --session`, `a webhook said: the build is green`; in the second, `another session
// entirely`. A person's text is shown in its own session only, the model's words never count, and a
// store that is missing or not OpenCode's confirms nothing. Reading changes nothing in the file.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { opencodeStore, recordShows, userTexts } from './record.js'

const FIXTURE = resolve(import.meta.dirname, '../../../test/fixtures/opencode/opencode.db')
const FIRST = 'ses_ddc1d6be7ffepY2X4DMbStqMD4'
const SECOND = 'ses_ddc1c4cdaffeOLfX2DBsy17YKK'

let dir: string
let store: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-record-'))
  store = join(dir, 'opencode.db')
  copyFileSync(FIXTURE, store)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('lists the person’s texts of a session, oldest first', () => {
  expect(userTexts(store, FIRST)).toEqual([
    'RUN:echo hi-from-the-record',
    'a webhook said: the build is green',
  ])
  expect(userTexts(store, SECOND)).toEqual(['another session entirely'])
})

it('shows a text in its own session only, whole, and never the model’s words', () => {
  expect(recordShows(store, FIRST, 'a webhook said: the build is green')).toBe(true)
  expect(recordShows(store, SECOND, 'a webhook said: the build is green')).toBe(false)
  expect(recordShows(store, FIRST, 'the build is green')).toBe(false)
  expect(recordShows(store, FIRST, 'DONE: hi-from-the-record\n')).toBe(false)
  expect(recordShows(store, SECOND, 'nothing to do')).toBe(false)
  expect(userTexts(store, 'ses_nobody')).toEqual([])
})

it('confirms nothing from a store that is missing or not OpenCode’s', () => {
  expect(userTexts(join(dir, 'none.db'), FIRST)).toBeNull()
  expect(recordShows(join(dir, 'none.db'), FIRST, 'RUN:echo hi-from-the-record')).toBe(false)
  const other = join(dir, 'other.db')
  writeFileSync(other, 'not a database at all')
  expect(userTexts(other, FIRST)).toBeNull()
})

it('reads without writing: the store’s bytes are as they were, and nothing is left beside it', () => {
  const before = readFileSync(store)
  userTexts(store, FIRST)
  expect(readFileSync(store).equals(before)).toBe(true)
  expect(readdirSync(dir)).toEqual(['opencode.db'])
})

it('finds the store where OpenCode keeps it: XDG_DATA_HOME, else ~/.local/share', () => {
  expect(opencodeStore({ XDG_DATA_HOME: '/d', HOME: '/home/ann' })).toBe('/d/opencode/opencode.db')
  expect(opencodeStore({ HOME: '/home/ann' })).toBe('/home/ann/.local/share/opencode/opencode.db')
})
