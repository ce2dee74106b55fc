// Switchboard's hooks in the other agents (issue 35), as `uninstall` and `doctor` see them: each
// agent's user-wide file, the projects `install <agent> --hooks --project` put them in (recorded in
// the home), and how to tell and take out Switchboard's hook there.
import type { Agent } from '../core/agents.js'
import { codexConfigFile, hasCodexHook, removeCodexHook } from './codex-config.js'
import { geminiSettingsFile, hasGeminiHook, removeGeminiHook } from './gemini-settings.js'
import { hookInstalls } from './hook-installs.js'

export interface AgentHookFiles {
  agent: Exclude<Agent, 'claude'>
  /** What a line of uninstall or doctor is about ("Codex hook"). */
  what: string
  /** The user-wide file install writes without --project. */
  userFile(): string
  has(file: string): boolean
  /** Takes Switchboard's hook out of `file`; how many went. */
  remove(file: string): number
}

export const AGENT_HOOK_FILES: readonly AgentHookFiles[] = [
  {
    agent: 'codex',
    what: 'Codex hook',
    userFile: () => codexConfigFile(),
    has: hasCodexHook,
    // Codex keeps its trust in every hook in the user's own config.
    remove: (file) => removeCodexHook(file, codexConfigFile()),
  },
  {
    agent: 'gemini',
    what: 'Gemini CLI hook',
    userFile: () => geminiSettingsFile(),
    has: hasGeminiHook,
    remove: removeGeminiHook,
  },
]

/** The user's own file, then every project's the hooks were recorded in. */
export function hookFilesOf(entry: AgentHookFiles, home: string): string[] {
  return [...new Set([entry.userFile(), ...hookInstalls(home, entry.agent)])]
}
