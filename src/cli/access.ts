// `switchboard sender`, `pair` and `access`: who may talk to sessions, through the hub's API (a hub is
// started when none runs): the hub is the one process that writes its store.
import type { Command } from 'commander'
import { hubApi } from './options.js'
import { printJson } from './output.js'

/** The senders, four columns each (name, status, role, how the chat platform shows them), or JSON. */
async function listSenders(opts: { json?: boolean }, command: Command): Promise<void> {
  const { senders } = await hubApi(command).call('senders')
  if (opts.json) return printJson(senders)
  if (senders.length === 0)
    process.stdout.write('no senders yet (switchboard sender add <name>, or pairing)\n')
  for (const s of senders)
    process.stdout.write(
      `${s.name}\t${s.status}\t${s.operator ? 'operator' : '-'}\t${s.displayName ?? '-'}\n`,
    )
}

export function registerAccess(program: Command): void {
  const sender = program.command('sender').description('people who chat with sessions over HTTP')
  sender
    .command('list')
    .description('list senders with their status (as access list)')
    .option('--json', 'JSON, for scripts')
    .action(listSenders)
  sender
    .command('add <name>')
    .description('create an allowed sender and print its token')
    .option('--operator', 'may also answer permission requests')
    .action(async (name: string, opts: { operator?: boolean }, command: Command) => {
      const { token } = await hubApi(command).call('addSender', {
        body: { name, operator: !!opts.operator },
      })
      process.stdout.write(
        `sender "${name}"${opts.operator ? ' (operator)' : ''}\n  token: ${token}\n` +
          'Send messages with POST /messages and read replies from GET /events, with "Authorization: Bearer <token>".\n',
      )
    })

  program
    .command('pair [code]')
    .description('approve a pairing request: the device that showed this code becomes an allowed sender')
    .option('--name <name>', 'name for the new sender (default: paired-<code>)')
    .option('--operator', 'may also answer permission requests')
    .option('--list', 'list the pairing requests waiting, with who asked')
    .option('--json', 'with --list: JSON, for scripts')
    .action(
      async (
        code: string | undefined,
        opts: { name?: string; operator?: boolean; list?: boolean; json?: boolean },
        command: Command,
      ) => {
        if (opts.list || code === undefined) {
          const { pairings: pending } = await hubApi(command).call('pairings')
          if (opts.json)
            return printJson(
              pending.map((d) => ({
                code: d.code,
                createdAt: d.createdAt,
                expiresAt: d.expiresAt,
                ...d.request,
              })),
            )
          if (pending.length === 0) process.stdout.write('no pairing requests waiting\n')
          for (const d of pending) {
            const { address, userAgent } = d.request as { address?: string; userAgent?: string | null }
            const at = new Date(d.createdAt).toISOString()
            process.stdout.write(`${d.code}\tasked ${at} from ${address ?? 'unknown'}\t${userAgent ?? ''}\n`)
          }
          return
        }
        const { sender } = await hubApi(command).call('approvePairing', {
          params: { code },
          body: { name: opts.name, operator: opts.operator },
        })
        process.stdout.write(
          `paired: "${sender.name}" may now send messages${sender.operator ? ' and answer permission requests' : ''}\n`,
        )
      },
    )

  const access = program.command('access').description('who may talk to sessions')

  access
    .command('list')
    .description('list senders with their status')
    .option('--json', 'JSON, for scripts')
    .action(listSenders)

  access
    .command('allow <name>')
    .description(
      'allow a sender (unblocks a blocked one); telegram:<user id> and the like let a chat account in before it writes',
    )
    .option('--operator', 'may also answer permission requests')
    .option('--no-operator', 'may not answer permission requests')
    .action(async (name: string, opts: { operator?: boolean }, command: Command) => {
      const { sender } = await hubApi(command).call('setSenderAccess', {
        params: { name },
        body: { status: 'allowed', operator: opts.operator },
      })
      process.stdout.write(`"${sender.name}" is allowed${sender.operator ? ' (operator)' : ''}\n`)
    })

  access
    .command('block <name>')
    .description('block a sender: nothing it sends reaches a session')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('setSenderAccess', { params: { name }, body: { status: 'blocked' } })
      process.stdout.write(`"${name}" is blocked\n`)
    })

  access
    .command('remove <name>')
    .description('delete a sender and its token')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('removeSender', { params: { name } })
      process.stdout.write(`removed "${name}"\n`)
    })
}
