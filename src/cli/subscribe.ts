import type { Command } from 'commander'
import { z } from 'zod'
import { UserError } from '../core/errors.js'
import { topicSchema } from '../core/hub-protocol.js'
import { check, hubApi } from './options.js'

const whole = (flag: string) =>
  z.coerce
    .number({ error: `${flag} must be a number` })
    .int(`${flag} must be whole`)
    .positive(`${flag} must be positive`)

export function registerSubscribe(program: Command): void {
  program
    .command('subscribe')
    .description(
      'POST every event (of some topics) to a URL, signed, with retries; prints the signing secret',
    )
    .requiredOption('--url <url>', 'where to POST each event')
    .option('--topics <list>', 'comma-separated topics (default: all)')
    .option('--max-attempts <n>', 'attempts before an event is dead-lettered (default 8)')
    .option('--backoff-ms <ms>', 'first retry delay, doubled each time (default 1000)')
    .action(
      async (
        opts: { url: string; topics?: string; maxAttempts?: string; backoffMs?: string },
        command: Command,
      ) => {
        const topics = opts.topics?.split(',').map((t) => check(topicSchema, t.trim(), '--topics'))
        const maxAttempts =
          opts.maxAttempts === undefined
            ? undefined
            : check(whole('--max-attempts'), opts.maxAttempts, '--max-attempts')
        const backoffMs =
          opts.backoffMs === undefined
            ? undefined
            : check(whole('--backoff-ms'), opts.backoffMs, '--backoff-ms')
        if (!/^https?:\/\//.test(opts.url)) throw new UserError(`--url "${opts.url}": must be an http(s) URL`)
        const hub = hubApi(command)
        const sub = await hub.subscribe({ url: opts.url, topics, maxAttempts, backoffMs })
        process.stdout.write(
          `${sub.name} → ${sub.url} (topics ${sub.topics.join(', ')})\n  secret: ${sub.secret}\n` +
            'Each POST carries X-Switchboard-Signature-256: sha256=<HMAC-SHA256 of the body with the secret>.\n',
        )
      },
    )
}

export function registerDeliveries(program: Command): void {
  program
    .command('deliveries <webhook>')
    .description('the delivery log of an outbound webhook (its name, as `subscribe` printed it)')
    .action(async (name: string, _opts: unknown, command: Command) => {
      const hub = hubApi(command)
      const { log } = await hub.outboundLog(name)
      if (log.length === 0) process.stdout.write('no deliveries yet\n')
      for (const a of log)
        process.stdout.write(
          `${new Date(a.at).toISOString()}\t${a.eventId}\tattempt ${a.attempt}\t${a.status ?? '-'}${a.error ? `\t${a.error}` : ''}\n`,
        )
    })
}
