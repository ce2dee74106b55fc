// `switchboard peers`, `send` and `dead-letters`: sessions talking to each other, from the terminal.
import type { Command } from 'commander'
import { hubApi } from './options.js'
import { printJson } from './output.js'

export function registerPeers(program: Command): void {
  program
    .command('peers')
    .description('the sessions that can message each other, live or not')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { peers } = await hubApi(command).call('peers')
      if (opts.json) return printJson(peers)
      if (peers.length === 0)
        process.stdout.write('no peers yet: a session becomes one when its channel connects\n')
      for (const p of peers)
        process.stdout.write(
          `${p.name}\t${p.live ? 'live' : 'offline'}${p.pending ? `\t${p.pending} waiting` : ''}${p.rooms.length ? `\trooms: ${p.rooms.join(', ')}` : ''}\n`,
        )
    })

  program
    .command('send <peer> <text>')
    .description('send a message to a session; it waits for the session if it is offline')
    .option('--from <name>', 'who it is from (default: cli)')
    .action(async (peer: string, text: string, opts: { from?: string }, command: Command) => {
      const { message } = await hubApi(command).call('sendToPeer', {
        body: { to: peer, text, ...(opts.from ? { from: opts.from } : {}) },
      })
      process.stdout.write(`${message}\n`)
    })

  program
    .command('dead-letters')
    .description('what could not be delivered: messages to unknown peers, webhooks that kept failing')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { deadLetters } = await hubApi(command).call('deadLetters')
      if (opts.json) return printJson(deadLetters)
      if (deadLetters.length === 0) process.stdout.write('no dead letters\n')
      for (const d of deadLetters)
        process.stdout.write(
          `${new Date(d.createdAt).toISOString()}\t${d.kind}\t${d.target}\t${d.reason}\t${JSON.stringify(d.payload)}\n`,
        )
    })
}
