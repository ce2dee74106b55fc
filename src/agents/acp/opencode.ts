// OpenCode over ACP (`opencode acp --cwd <dir>`, shared/AGENTS.md §3e): the same session/new, prompt,
// request_permission, cancel and load as Gemini CLI's, with its own option ids (chosen by kind), and
// its record read back from its store (agents/opencode/record.ts).
import { unavailable } from '../../core/errors.js'
import { onPath } from '../../core/on-path.js'
import { opencodeStore, userTexts } from '../opencode/record.js'
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
  // Its record is its SQLite store (opencode.db), where the session's environment says it is.
  record: (env) => ({
    userTexts: async (sessionId) => userTexts(opencodeStore(env), sessionId) ?? [],
  }),
}
