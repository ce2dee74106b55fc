// `switchboard push`: the browsers that get Web Push (prompts and finished turns with the dashboard
// closed), listed and revoked. A browser subscribes from the dashboard (Access page).
import type { Command } from 'commander'
import { hubApi } from './options.js'
import { printJson } from './output.js'

export function registerPush(program: Command): void {
  const push = program
    .command('push')
    .description('browsers that get push notifications with the dashboard closed (list, revoke)')
  push
    .command('list')
    .description('the subscribed browsers: id, who, push service, since, browser')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { subscriptions } = await hubApi(command).call('pushSubscriptions')
      if (opts.json) return printJson(subscriptions)
      if (subscriptions.length === 0)
        process.stdout.write('no browser gets push yet (turn it on in the dashboard: Access)\n')
      for (const s of subscriptions)
        process.stdout.write(
          `${s.id}\t${s.sender}\t${s.service}\t${new Date(s.createdAt).toISOString()}\t${s.displayName ?? '-'}\n`,
        )
    })
  push
    .command('revoke <id>')
    .description('stop pushing to a browser (its id, as `push list` shows it)')
    .option('--json', 'JSON, for scripts')
    .action(async (id: string, opts: { json?: boolean }, command: Command) => {
      const answer = await hubApi(command).call('revokePush', { params: { id } })
      if (opts.json) return printJson(answer)
      process.stdout.write(`revoked ${answer.removed}\n`)
    })
}
