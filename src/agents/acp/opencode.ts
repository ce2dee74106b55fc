// OpenCode over ACP (`opencode acp --cwd <dir>`, shared/AGENTS.md §3e): the same session/new, prompt,
// request_permission, cancel and load as Gemini CLI's, with its own option ids (chosen by kind).
import { unavailable } from '../../core/errors.js'
import { onPath } from '../../core/on-path.js'
import type { AcpProfile } from './profile.js'

/** `OPENCODE_PATH`, else `opencode` on PATH. */
export function findOpenCode(env: NodeJS.ProcessEnv): string {
  if (env.OPENCODE_PATH) return env.OPENCODE_PATH
  const found = onPath('opencode', env)
  if (found) return found
  throw unavailable('OpenCode not found: install it (npm i -g opencode-ai) or set OPENCODE_PATH')
}

export const OPENCODE: AcpProfile = {
  agent: 'opencode',
  label: 'OpenCode',
  command: (cwd, env) => ({
    bin: findOpenCode(env),
    args: ['acp', '--cwd', cwd],
    // A driven process must not replace itself with a newer OpenCode in the middle of a session.
    env: { OPENCODE_DISABLE_AUTOUPDATE: '1' },
  }),
  // The hook for OpenCode's record: its SQLite store (opencode.db, tables message and part) is read
  // by src/agents/opencode/record.ts, written on another branch. Once it lands:
  //   record: (env) => new OpenCodeRecord(env),
  // Until then an event in an OpenCode session is `unconfirmed`, for this reason:
  unreadable: "Switchboard does not read OpenCode's session store (opencode.db) yet",
}
