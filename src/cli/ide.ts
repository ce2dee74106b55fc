// `switchboard ide list`: the IDEs on this machine a session can be bound to, read from Claude Code's
// lock files (stale ones removed). Binding is `switchboard sessions ide <session> <port|name>`.
import type { Command } from 'commander'
import { listIdes } from '../claude/ide.js'
import { printJson } from './output.js'

export function registerIde(program: Command): void {
  program
    .command('ide')
    .description('IDEs with the Claude Code integration that a driven session can use')
    .command('list', { isDefault: true })
    .description('the live IDEs: port, name, workspace folders')
    .option('--json', 'JSON, for scripts')
    .action((opts: { json?: boolean }) => {
      const ides = listIdes()
      if (opts.json) return printJson(ides)
      if (ides.length === 0) process.stdout.write('no live IDE (open one with the Claude Code extension)\n')
      for (const ide of ides)
        process.stdout.write(`${ide.port}\t${ide.name}\t${ide.workspaceFolders.join(', ')}\n`)
    })
}
