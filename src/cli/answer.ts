// `switchboard answer <id> yes|no`: a prompt waiting for a person, answered at the terminal (any
// session's permission, question dismissal or plan review; the id every surface shows).
import type { Command } from 'commander'
import { invalid } from '../core/errors.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'

export function registerAnswer(program: Command): void {
  program
    .command('answer <id> <verdict>')
    .description('answer a waiting prompt by its five-letter id: yes (allow) or no (deny)')
    .option('--message <text>', 'with no: what Claude is told')
    .option('--json', 'JSON, for scripts')
    .action(
      async (id: string, verdict: string, opts: { message?: string; json?: boolean }, command: Command) => {
        const behavior = /^(y|yes|allow)$/i.test(verdict)
          ? 'allow'
          : /^(n|no|deny)$/i.test(verdict)
            ? 'deny'
            : null
        if (!behavior) throw invalid(`verdict "${verdict}": say yes or no`)
        const answer =
          behavior === 'allow'
            ? { behavior: 'allow' as const }
            : { behavior: 'deny' as const, message: opts.message ?? 'Denied at the terminal' }
        const { decision } = await hubApi(command).call('answer', {
          params: { ref: id.trim().toLowerCase() },
          body: answer,
        })
        if (opts.json)
          return printJson({ decision: decision.id, code: decision.code, behavior, owner: decision.owner })
        process.stdout.write(
          `${behavior === 'allow' ? 'allowed' : 'denied'} ${decision.code} (${decision.owner})\n`,
        )
      },
    )
}
