// `switchboard answer <code> yes|no` and `switchboard answer <code> <answer>…`: a prompt waiting for a
// person, answered at the terminal (any session's permission, plan review or question; the code every
// surface shows), on any hub of the database.
import type { Command } from 'commander'
import { answerFor } from '../core/answer-values.js'
import { conflict, notFound } from '../core/errors.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'

export function registerAnswer(program: Command): void {
  program
    .command('answer <code> <values...>')
    .description(
      'answer a waiting prompt by its five-letter code: yes or no; for a question, one option (label or number) per question, in order',
    )
    .option('--message <text>', 'with no: what Claude is told (a plan sent back with a comment)')
    .option('--json', 'JSON, for scripts')
    .action(
      async (
        code: string,
        values: string[],
        opts: { message?: string; json?: boolean },
        command: Command,
      ) => {
        const api = hubApi(command)
        const ref = code.trim().toLowerCase()
        const { decisions } = await api.call('decisions')
        const named = decisions.filter((d) => d.code === ref || d.id === ref)
        if (named.length > 1)
          throw conflict(
            `"${ref}" is open in ${named.length} sessions at once; answer it by its decision id (switchboard decisions --json)`,
          )
        const [open] = named
        if (!open)
          throw notFound(`no open prompt "${ref}"; nothing was changed (switchboard decisions lists them)`)
        const answer = answerFor(open, values, opts.message)
        const { decision } = await api.call('answer', { params: { ref: open.id }, body: answer })
        if (opts.json)
          return printJson({
            decision: decision.id,
            code: decision.code,
            kind: decision.kind,
            answer,
            owner: decision.owner,
          })
        const said =
          open.kind === 'denied'
            ? answer.behavior === 'deny'
              ? 'left denied'
              : 'allowed a retry of'
            : answer.behavior === 'deny'
              ? 'denied'
              : answer.answers
                ? `answered ${Object.values(answer.answers)
                    .map((a) => JSON.stringify(a))
                    .join(', ')}`
                : 'allowed'
        process.stdout.write(`${said} ${decision.code} (${decision.owner})\n`)
      },
    )
}
