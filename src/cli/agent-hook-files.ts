// Switchboard's hooks in the other agents (issue 35; OpenCode's is a plugin), as `uninstall` and
// `doctor` see them: each agent's user-wide file, the projects install put them in with --project
// (recorded in the home), and how to tell and take out Switchboard's hook there.
import type { Agent } from '../core/agents.js'
import { codexConfigFile, hasCodexHook, removeCodexHook } from './codex-config.js'
import { geminiSettingsFile, hasGeminiHook, removeGeminiHook } from './gemini-settings.js'
import { hookInstalls } from './hook-installs.js'
import { hasOpencodePlugin, opencodePluginFile, removeOpencodePlugin } from './opencode-plugin.js'

export interface AgentHookFiles {
  agent: Exclude<Agent, 'claude'>
  /** What a line of uninstall is about ("Codex hook"). */
  what: string
  /** Whom a line of doctor is about ("Codex"), and what Switchboard puts there. */
  label: string
  kind: 'hook' | 'plugin'
  /** The command that installs it. */
  install: string
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
    label: 'Codex',
    kind: 'hook',
    install: 'switchboard install codex --hooks',
    userFile: () => codexConfigFile(),
    has: hasCodexHook,
    // Codex keeps its trust in every hook in the user's own config.
    remove: (file) => removeCodexHook(file, codexConfigFile()),
  },
  {
    agent: 'gemini',
    what: 'Gemini CLI hook',
    label: 'Gemini CLI',
    kind: 'hook',
    install: 'switchboard install gemini --hooks',
    userFile: () => geminiSettingsFile(),
    has: hasGeminiHook,
    remove: removeGeminiHook,
  },
  {
    agent: 'opencode',
    what: 'OpenCode plugin',
    label: 'OpenCode',
    kind: 'plugin',
    install: 'switchboard install opencode',
    userFile: () => opencodePluginFile(),
    has: hasOpencodePlugin,
    remove: (file) => (removeOpencodePlugin(file) ? 1 : 0),
  },
]

/** The user's own file, then every project's the hooks were recorded in. */
export function hookFilesOf(entry: AgentHookFiles, home: string): string[] {
  return [...new Set([entry.userFile(), ...hookInstalls(home, entry.agent)])]
}
