// Gemini CLI's own record of a session (shared/AGENTS.md §2d), read back: a JSON-lines file at
// `<home>/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl` (the
// time is UTC, to the minute, when the recording started). Its lines are a header, messages (by id; a
// later line with the same id replaces it), `$set` updates whose `messages` replace the whole list,
// and `$rewindTo` lines that drop a message and everything after it — applied here as Gemini
// applies them when it loads the file, so a text counts only if Gemini's own history holds it.
import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SessionRecordReader } from './profile.js'

/** A record larger than this is not read (a session's record is far smaller). */
const MAX_RECORD_BYTES = 32 * 1024 * 1024

/** Where Gemini keeps its folder: GEMINI_CLI_HOME when set, else the home folder. */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || '', '.gemini')
}

/** The minute stamp Gemini puts in a record's name for a recording started at `at`. */
export function minuteStamp(at: Date): string {
  return at.toISOString().slice(0, 16).replace(/:/g, '-')
}

/** Every record file of the session (by the first 8 of its id) under each project's chats folder. */
export function recordFiles(env: NodeJS.ProcessEnv, sessionId: string): string[] {
  const tmp = join(geminiDir(env), 'tmp')
  const suffix = `-${sessionId.slice(0, 8)}.jsonl`
  const found: string[] = []
  for (const project of safeList(tmp)) {
    const chats = join(tmp, project, 'chats')
    for (const name of safeList(chats)) {
      if (name.startsWith('session-') && name.endsWith(suffix)) found.push(join(chats, name))
    }
  }
  return found.sort()
}

/** The user texts of a record's messages, Gemini's checkpoints and rewinds applied. */
export function userTextsOf(recordText: string, sessionId: string): string[] | null {
  let sessionOf: string | null = null
  const messages = new Map<string, Record<string, unknown>>()
  const put = (value: unknown) => {
    if (isObj(value) && typeof value.id === 'string') messages.set(value.id, value)
  }
  for (const line of recordText.split('\n')) {
    if (!line.trim()) continue
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      continue // a line being written
    }
    if (!isObj(record)) continue
    if (typeof record.$rewindTo === 'string') {
      const ids = [...messages.keys()]
      const at = ids.indexOf(record.$rewindTo)
      for (const id of at === -1 ? ids : ids.slice(at)) messages.delete(id)
    } else if (typeof record.id === 'string') {
      put(record)
    } else if (isObj(record.$set)) {
      if (Array.isArray(record.$set.messages)) {
        messages.clear()
        for (const m of record.$set.messages) put(m)
      }
    } else if (typeof record.sessionId === 'string') {
      sessionOf = record.sessionId
      if (Array.isArray(record.messages)) for (const m of record.messages) put(m)
    }
  }
  if (sessionOf !== sessionId) return null
  // A tool's response goes back as a user message too, with no text: it is no prompt.
  return [...messages.values()]
    .filter((m) => m.type === 'user')
    .map((m) => textOf(m.content))
    .filter((text) => text !== '')
}

/** Reads the sessions Gemini CLI recorded under the session environment's home. */
export class GeminiRecord implements SessionRecordReader {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async userTexts(sessionId: string): Promise<string[]> {
    const texts: string[] = []
    for (const file of recordFiles(this.env, sessionId)) {
      const text = readRegularFile(file)
      if (text !== null) texts.push(...(userTextsOf(text, sessionId) ?? []))
    }
    return texts
  }
}

/**
 * Whether Gemini, starting a recording for `sessionId` at `at`, would pick the name of a record that
 * exists: it then appends a fresh header and an empty message list to the session's own record,
 * and the session cannot be loaded again (shared/AGENTS.md §2e).
 */
export function loadWouldReuseRecord(env: NodeJS.ProcessEnv, sessionId: string, at: Date): boolean {
  const name = `session-${minuteStamp(at)}-${sessionId.slice(0, 8)}.jsonl`
  return recordFiles(env, sessionId).some((file) => file.endsWith(`/${name}`))
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part) => (isObj(part) && typeof part.text === 'string' ? part.text : '')).join('')
}

/** A regular file's text (no link followed), or null when it is none or too large. */
function readRegularFile(file: string): string | null {
  try {
    const stat = lstatSync(file)
    if (!stat.isFile() || stat.size > MAX_RECORD_BYTES) return null
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function isObj(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
