// `switchboard install <agent>`: Switchboard set up in a coding agent's own hook mechanism, one
// subcommand per agent (Claude Code's settings, Codex's config.toml, Gemini CLI's settings.json,
// OpenCode's plugin folder).
import type { Command } from 'commander'
import { registerCodexInstall } from './codex-install.js'
import { registerGeminiInstall } from './gemini-install.js'
import { registerClaudeInstall } from './hook.js'
import { registerOpencodeInstall } from './opencode-install.js'

export function registerInstall(program: Command): void {
  const install = program.command('install').description('set Switchboard up in a client')
  registerClaudeInstall(install)
  registerCodexInstall(install)
  registerGeminiInstall(install)
  registerOpencodeInstall(install)
}
