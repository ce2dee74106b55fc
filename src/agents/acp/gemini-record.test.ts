// Gemini CLI's record of a session, read back as Gemini reads it, on a record the real CLI (0.61.0)
// wrote over ACP: a shell command, a SLOW prompt interrupted (Gemini's checkpoint then drops it
// from the history), a prompt sent during that turn, and one after a load in a new process.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GeminiRecord, loadWouldReuseRecord, userTextsOf } from './gemini-record.js'

const FIXTURE = join(
  import.meta.dirname,
  '../../../test/fixtures/gemini/session-2026-11-28T20-22-43422f56.jsonl',
)
const SESSION = '43422f56-2da0-4fc0-b4f7-168a331091ed'

let home: string | null = null
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true })
  home = null
})

/** A home whose ~/.gemini holds the fixture where Gemini put it. */
function homeWithRecord(): NodeJS.ProcessEnv {
  home = mkdtempSync(join(tmpdir(), 'gemini-record-'))
  const chats = join(home, '.gemini/tmp/gemini-project-ypryhb/chats')
  mkdirSync(chats, { recursive: true })
  cpSync(FIXTURE, join(chats, 'session-2026-11-28T20-22-43422f56.jsonl'))
  return { HOME: home }
}

describe("Gemini CLI's session record", () => {
  it('holds the prompts Gemini kept, its checkpoints applied: the interrupted one is gone', () => {
    const texts = userTextsOf(readFileSync(FIXTURE, 'utf8'), SESSION) ?? []
    expect(texts[0]).toMatch(/^<session_context>/)
    expect(texts.slice(1)).toEqual([
      'RUN:touch /tmp/gemini-project-YpRYHb/made && echo made-it',
      'queued one',
      'what came before?',
    ])
  })

  it("is another session's record for any other id", () => {
    expect(userTextsOf(readFileSync(FIXTURE, 'utf8'), 'b20e4817-494e-4f1d-8ce9-467ecd46a049')).toBeNull()
  })

  it("is found under the home's .gemini folder, or GEMINI_CLI_HOME's", async () => {
    const env = homeWithRecord()
    expect(await new GeminiRecord(env).userTexts(SESSION)).toContain('queued one')
    expect(await new GeminiRecord({ GEMINI_CLI_HOME: env.HOME }).userTexts(SESSION)).toContain('queued one')
    expect(await new GeminiRecord({ HOME: tmpdir() }).userTexts(SESSION)).toEqual([])
  })

  it('says a load in the minute the record was started would reuse its name, and one a minute later would not', () => {
    const env = homeWithRecord()
    expect(loadWouldReuseRecord(env, SESSION, new Date('2026-11-28T20:22:59.900Z'))).toBe(true)
    expect(loadWouldReuseRecord(env, SESSION, new Date('2026-11-28T20:23:00.100Z'))).toBe(false)
    expect(loadWouldReuseRecord(env, 'b20e4817-494e', new Date('2026-11-28T20:22:30Z'))).toBe(false)
  })
})
