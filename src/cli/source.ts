import type { Command } from 'commander'
import { z } from 'zod'
import { UserError } from '../core/errors.js'
import { topicSchema } from '../core/hub-protocol.js'
import { newSecret } from '../core/ids.js'
import { isReservedSource } from '../core/sources.js'
import { check, configFrom, withStore } from './options.js'

const sourceName = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'use 1-64 letters, digits or . _ -')
const headerName = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'not an HTTP header name')

export function registerSources(program: Command): void {
  const source = program.command('source').description('webhook sources: POST /hooks/<name>')

  source
    .command('add <name>')
    .description('create a webhook source and print its secret')
    .option('--topic <topic>', 'topic its events are published to (default: the source name)')
    .option('--delivery-header <header>', 'header whose value de-duplicates retries, e.g. X-GitHub-Delivery')
    .action(async (rawName: string, opts: { topic?: string; deliveryHeader?: string }, command: Command) => {
      const name = check(sourceName, rawName, 'source name')
      if (isReservedSource(name))
        throw new UserError(`source name "${name}" is reserved for Switchboard's own events; pick another`)
      const topic = check(topicSchema, opts.topic ?? name, '--topic')
      const deliveryHeader = opts.deliveryHeader
        ? check(headerName, opts.deliveryHeader, '--delivery-header')
        : null
      const secret = newSecret('sbw')
      await withStore(command, async (store) => {
        if (await store.getSource(name)) throw new UserError(`source "${name}" exists already`)
        await store.addSource({ name, topic, secret, deliveryHeader })
      })
      const { host, port } = configFrom(command)
      process.stdout.write(
        `source "${name}" (topic ${topic})\n` +
          `  URL:    http://${host}:${port}/hooks/${name}\n` +
          `  secret: ${secret}\n` +
          `Send it as "Authorization: Bearer <secret>", or sign the body (X-Hub-Signature-256).\n`,
      )
    })

  source
    .command('list')
    .description('list webhook sources')
    .action(async (_opts: unknown, command: Command) => {
      const sources = await withStore(command, (store) => store.listSources())
      if (sources.length === 0) process.stdout.write('no sources yet (switchboard source add <name>)\n')
      for (const s of sources)
        process.stdout.write(
          `${s.name}\ttopic=${s.topic}${s.deliveryHeader ? `\tdedupe=${s.deliveryHeader}` : ''}\n`,
        )
    })

  source
    .command('remove <name>')
    .description('delete a webhook source; its URL answers 404 from then on')
    .action(async (name: string, _opts: unknown, command: Command) => {
      const removed = await withStore(command, (store) => store.removeSource(name))
      if (!removed) throw new UserError(`no source named "${name}"`)
      process.stdout.write(`removed source "${name}"\n`)
    })
}
