// Gemini CLI over ACP (`gemini --acp`, shared/AGENTS.md §2e). It asks before running a tool through
// `session/request_permission` (its BeforeTool hooks do not fire in this mode), keeps its record of
// each session in a file Switchboard reads back (gemini-record.ts), and loads a session in a new
// process with `session/load` — except in the minute the session's record was started, see below.
import { setTimeout as sleep } from 'node:timers/promises'
import { unavailable } from '../../core/errors.js'
import { onPath } from '../../core/on-path.js'
import { GeminiRecord, loadWouldReuseRecord } from './gemini-record.js'
import type { AcpProfile } from './profile.js'

/** `GEMINI_PATH`, else `gemini` on PATH. */
export function findGemini(env: NodeJS.ProcessEnv): string {
  if (env.GEMINI_PATH) return env.GEMINI_PATH
  const found = onPath('gemini', env)
  if (found) return found
  throw unavailable('Gemini CLI not found: install it (npm i -g @google/gemini-cli) or set GEMINI_PATH')
}

export const GEMINI: AcpProfile = {
  agent: 'gemini',
  label: 'Gemini CLI',
  command: (_cwd, env) => ({ bin: findGemini(env), args: ['--acp'] }),
  record: (env) => new GeminiRecord(env),
  /**
   * A new process loading a session starts a recording named by the minute (UTC) and the session's
   * id; in the minute the session's record was started that is the record's own name, and Gemini
   * writes an empty history over it: the load fails and the session is lost. The load waits for
   * the minute to turn instead, and the session's lines say so.
   */
  async beforeLoad(sessionId, env, waiting) {
    let told = false
    while (loadWouldReuseRecord(env, sessionId, new Date())) {
      if (!told) {
        waiting(
          'Gemini CLI cannot load a session in the minute its record was started (it would overwrite it): waiting for the minute to turn',
        )
        told = true
      }
      const now = Date.now()
      await sleep(60_000 - (now % 60_000) + 250)
    }
  },
}
