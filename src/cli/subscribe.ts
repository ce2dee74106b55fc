// `switchboard subscribe`: outbound webhooks (add, list, remove) and `deliveries`, their delivery log.
import type { Command } from 'commander'
import * as z from 'zod'
import { invalid } from '../core/errors.js'
import { topicSchema } from '../core/hub-protocol.js'
import { check, hubApi } from './options.js'
import { printJson } from './output.js'

const whole = (flag: string) =>
  z.coerce
    .number({ error: `${flag} must be a number` })
    .int(`${flag} must be whole`)
    .positive(`${flag} must be positive`)

export function registerSubscribe(program: Command): void {
  const subscribe = program
    .command('subscribe')
    .description(
      'POST every event (of some topics) to a URL, signed, with retries; prints the signing secret',
    )
    .option('--url <url>', 'where to POST each event')
    .option('--topics <list>', 'comma-separated topics (default: all)')
    .option('--max-attempts <n>', 'attempts before an event is dead-lettered (default 8)')
    .option('--backoff-ms <ms>', 'first retry delay, doubled each time (default 1000)')
    .option(
      '--receipts',
      "also POST a signed receipt when one of these events is in a session's context, or ends unconfirmed",
    )
    .action(
      async (
        opts: { url?: string; topics?: string; maxAttempts?: string; backoffMs?: string; receipts?: boolean },
        command: Command,
      ) => {
        if (!opts.url)
          throw invalid('say where to POST: subscribe --url <url> (or: subscribe list | remove <name>)')
        const topics = opts.topics?.split(',').map((t) => check(topicSchema, t.trim(), '--topics'))
        const maxAttempts =
          opts.maxAttempts === undefined
            ? undefined
            : check(whole('--max-attempts'), opts.maxAttempts, '--max-attempts')
        const backoffMs =
          opts.backoffMs === undefined
            ? undefined
            : check(whole('--backoff-ms'), opts.backoffMs, '--backoff-ms')
        if (!/^https?:\/\//.test(opts.url)) throw invalid(`--url "${opts.url}": must be an http(s) URL`)
        const hub = hubApi(command)
        const sub = await hub.call('subscribe', {
          body: { url: opts.url, topics, maxAttempts, backoffMs, receipts: opts.receipts === true },
        })
        process.stdout.write(
          `${sub.name} → ${sub.url} (topics ${sub.topics.join(', ')}${sub.receipts ? '; receipts too' : ''})\n` +
            `  secret: ${sub.secret}\n` +
            'Each POST carries X-Switchboard-Signature-256: sha256=<HMAC-SHA256 of the body with the secret>.\n' +
            (sub.receipts
              ? 'A receipt is a POST of {"type":"receipt","event_id","topic","session","stage":"in_context"|"unconfirmed","at","tries","reason"}.\n'
              : ''),
        )
      },
    )
  registerSubscriptionAdmin(subscribe)
}

/** `subscribe list` and `subscribe remove`, beside `subscribe --url` that adds one. */
function registerSubscriptionAdmin(subscribe: Command): void {
  subscribe
    .command('list')
    .description('the outbound webhooks: name, URL, topics, events waiting, whether told of receipts')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { webhooks } = await hubApi(command).call('subscriptions')
      if (opts.json) return printJson(webhooks)
      if (webhooks.length === 0) process.stdout.write('no outbound webhooks\n')
      for (const w of webhooks)
        process.stdout.write(
          `${w.name}\t${w.url}\ttopics ${w.topics.join(',')}\t${w.pending} waiting${w.receipts ? '\treceipts' : ''}\n`,
        )
    })
  subscribe
    .command('remove <name>')
    .description('stop POSTing to an outbound webhook and forget it, with what waited for it')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('unsubscribe', { params: { name } })
      process.stdout.write(`removed ${name}\n`)
    })
}

export function registerDeliveries(program: Command): void {
  program
    .command('deliveries <webhook>')
    .description('the delivery log of an outbound webhook (its name, as `subscribe` printed it)')
    .action(async (name: string, _opts: unknown, command: Command) => {
      const hub = hubApi(command)
      const { log } = await hub.call('subscriptionLog', { params: { name } })
      if (log.length === 0) process.stdout.write('no deliveries yet\n')
      for (const a of log)
        process.stdout.write(
          `${new Date(a.at).toISOString()}\t${a.eventId}${a.kind === 'receipt' ? ' (receipt)' : ''}\tattempt ${a.attempt}\t${a.status ?? '-'}${a.error ? `\t${a.error}` : ''}\n`,
        )
    })
}
