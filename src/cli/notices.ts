// `switchboard notices <sender> [waiting] [finished] [run-started] [run-ended] [budget] | all | off`: which
// notices a sender gets, of sessions at terminals ("Claude is waiting for you", "finished its turn")
// and of routines' runs (started, ended); without kinds, what it gets now. A chat person chooses the
// same with /notices.
import type { Command } from 'commander'
import { noticeKindsOf, noticeLine } from '../core/notices.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'

export function registerNotices(program: Command): void {
  program
    .command('notices <sender> [kinds...]')
    .description(
      'which notices a sender gets: waiting, finished (sessions at terminals), run-started, run-ended (routines), budget (a project’s daily budget), all or off',
    )
    .option('--json', 'JSON, for scripts')
    .action(async (name: string, words: string[], opts: { json?: boolean }, command: Command) => {
      const api = hubApi(command)
      const choice = words.length
        ? await api.call('chooseNotices', { params: { name }, body: { kinds: noticeKindsOf(words) } })
        : await api.call('notices', { params: { name } })
      if (opts.json) return printJson(choice)
      process.stdout.write(`${choice.sender} gets ${noticeLine(choice.kinds)}\n`)
    })
}
