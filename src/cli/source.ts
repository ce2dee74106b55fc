// `switchboard source`: webhook sources (POST /hooks/<name>): add one with its preset, list, rotate
// its secret, bind, remove; through the hub's API (a hub is started when none runs), which writes
// them and goes by each change at once.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import * as z from 'zod'
import type { SourceRow } from '../core/api/rows.js'
import { invalid } from '../core/errors.js'
import { repoKey } from '../core/event.js'
import { topicSchema } from '../core/hub-protocol.js'
import {
  fieldSpecSchema,
  givenSecretSchema,
  headerNameSchema,
  MAX_FIELDS,
  presetSchema,
  SENDER_MADE_SECRET,
  sourceNameSchema,
  type WebhookPreset,
} from '../core/source-spec.js'
import { isReservedSource } from '../core/sources.js'
import { projectIdentity } from '../hub/projects/project-identity.js'
import { projectKeys } from '../hub/projects/projects.js'
import { check, configFrom, hubApi } from './options.js'
import { printJson } from './output.js'

const repositorySchema = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'a repository as owner/name')

/** How the sending side is set up, after the URL and secret are printed. */
const SETUP: Record<WebhookPreset, (topic: string) => string> = {
  generic: () =>
    'Send it as "Authorization: Bearer <secret>" (or as basic auth\'s password, any username), or sign\n' +
    'the body (X-Hub-Signature-256).',
  github: (topic) =>
    'In GitHub: Settings → Webhooks → Add webhook, with this URL, content type application/json and\n' +
    `this secret (GitHub signs; a bearer secret alone is refused). Events arrive on ${topic}.<event>:\n` +
    `subscribe with --topics '${topic}*'.`,
  alertmanager: () =>
    'In alertmanager.yml: a receiver with webhook_configs: [{url: <URL>, send_resolved: true,\n' +
    'http_config: {authorization: {credentials: <secret>}}}] (or basic_auth with it as password).',
  grafana: () =>
    'In Grafana: Alerting → Contact points → Webhook with this URL (method POST); under Optional\n' +
    'settings, the Authorization header with scheme Bearer and this secret as credentials, or basic\n' +
    'auth with any username and this secret as password.',
  sentry: (topic) =>
    'In Sentry: Settings → Developer Settings → the internal integration whose Client Secret this source\n' +
    'holds, with this URL as its webhook URL and the webhooks it should send (Sentry signs each; a bearer\n' +
    `secret alone is refused). Events arrive on ${topic}.<resource>: subscribe with --topics '${topic}*'.`,
}

const ARGV_WARNING =
  'switchboard: --secret on the command line: other users of this machine can read it there (ps, /proc) and your shell history keeps it; next time use --secret-file or --secret - (stdin)\n'

/**
 * The secret from `--secret-file`, or `--secret -` (stdin), or `--secret <value>` (noted in
 * `onArgv`: other local users can read a command line); undefined when neither is given.
 */
async function readGivenSecret(opts: { secret?: string; secretFile?: string }, onArgv: string[]) {
  if (opts.secret !== undefined && opts.secretFile !== undefined)
    throw invalid('give --secret or --secret-file, not both')
  let raw: string | undefined
  if (opts.secretFile !== undefined) {
    try {
      raw = readFileSync(opts.secretFile, 'utf8')
    } catch (err) {
      throw invalid(
        `--secret-file ${opts.secretFile}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      )
    }
  } else if (opts.secret === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    raw = Buffer.concat(chunks).toString('utf8')
  } else if (opts.secret !== undefined) {
    onArgv.push('--secret')
    raw = opts.secret
  }
  return raw === undefined
    ? undefined
    : check(givenSecretSchema, raw, opts.secretFile ? '--secret-file' : '--secret')
}

/** `--field name=path` flags into a field map, each checked; a name given twice is a mistake. */
function fieldMapOf(specs: string[]): Record<string, string> | null {
  if (specs.length === 0) return null
  if (specs.length > MAX_FIELDS) throw invalid(`at most ${MAX_FIELDS} --field flags`)
  const map: Record<string, string> = {}
  for (const spec of specs) {
    const [name, path] = check(fieldSpecSchema, spec, '--field')
    if (Object.hasOwn(map, name)) throw invalid(`--field "${spec}": ${name} is mapped twice`)
    map[name] = path
  }
  return map
}

function describe(s: SourceRow): string {
  const fields = s.fieldMap
    ? `\tfields=${Object.entries(s.fieldMap)
        .map(([name, path]) => `${name}=${path}`)
        .join(',')}`
    : ''
  const dedupe = s.deliveryHeader ? `\tdedupe=${s.deliveryHeader}` : ''
  const about = s.about?.length ? `\tabout=${s.about.join(',')}` : ''
  return `${s.name}\ttopic=${s.topic}\tpreset=${s.preset}${fields}${dedupe}${about}`
}

const more = (value: string, previous: string[]) => [...previous, value]

/** The project keys `--project` folders and `--repo` names stand for (core/event.ts). */
async function aboutOf(opts: { project: string[]; repo: string[] }): Promise<string[]> {
  const keys: string[] = []
  for (const dir of opts.project) {
    const folder = resolve(dir)
    if (!existsSync(folder)) throw invalid(`--project ${dir}: no such folder`)
    keys.push(...projectKeys(await projectIdentity(folder), folder))
  }
  for (const repo of opts.repo) keys.push(repoKey(check(repositorySchema, repo, '--repo')))
  return [...new Set(keys)]
}

export function registerSources(program: Command): void {
  const source = program.command('source').description('webhook sources: POST /hooks/<name>')

  source
    .command('add <name>')
    .description('create a webhook source and print its secret')
    .option('--topic <topic>', 'topic its events are published to (default: the source name)')
    .option('--delivery-header <header>', 'header whose value de-duplicates retries, e.g. X-GitHub-Delivery')
    .option(
      '--preset <preset>',
      'how bodies become events: generic (default), github, sentry, alertmanager, grafana',
    )
    .option(
      '--secret <secret>',
      "the sender's own secret (Sentry's Client Secret) instead of a new one; - reads stdin",
    )
    .option('--secret-file <path>', "read the sender's own secret from a file")
    .option(
      '--field <name=path>',
      'generic preset: content or an attribute from a JSON path, e.g. content=$.alert.text (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--project <dir>',
      'its events are about the project in <dir> (repeatable): see source bind',
      more,
      [],
    )
    .option(
      '--repo <owner/name>',
      'its events are about this repository (repeatable): see source bind',
      more,
      [],
    )
    .action(
      async (
        rawName: string,
        opts: {
          topic?: string
          deliveryHeader?: string
          preset?: string
          field: string[]
          secret?: string
          secretFile?: string
          project: string[]
          repo: string[]
        },
        command: Command,
      ) => {
        const name = check(sourceNameSchema, rawName, 'source name')
        const about = await aboutOf(opts)
        if (isReservedSource(name))
          throw invalid(`source name "${name}" is reserved for Switchboard's own events; pick another`)
        const topic = check(topicSchema, opts.topic ?? name, '--topic')
        const deliveryHeader = opts.deliveryHeader
          ? check(headerNameSchema, opts.deliveryHeader, '--delivery-header')
          : null
        const preset = check(presetSchema, opts.preset ?? 'generic', '--preset')
        if (opts.field.length > 0 && preset !== 'generic')
          throw invalid(`--field is for the generic preset; the ${preset} preset reads its payload itself`)
        const fieldMap = fieldMapOf(opts.field)
        const onArgv: string[] = []
        const given = await readGivenSecret(opts, onArgv)
        if (!given && SENDER_MADE_SECRET.has(preset))
          throw invalid(
            `the ${preset} preset checks signatures with the secret ${preset} made: give it with --secret-file <path> or --secret - (stdin)`,
          )
        const { secret } = await hubApi(command).call('addSource', {
          body: { name, topic, secret: given, deliveryHeader, preset, fieldMap, about },
        })
        const { host, port } = configFrom(command)
        if (onArgv.length) process.stderr.write(ARGV_WARNING)
        process.stdout.write(
          `source "${name}" (topic ${topic}, preset ${preset})\n` +
            `  URL:    http://${host}:${port}/hooks/${name}\n` +
            // A secret the person gave is theirs already: not printed back.
            `  secret: ${secret ?? '(the one you gave)'}\n` +
            `${SETUP[preset](topic)}\n`,
        )
      },
    )

  source
    .command('list')
    .description('list webhook sources (never their secrets)')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { sources } = await hubApi(command).call('sources')
      if (opts.json) return printJson(sources)
      if (sources.length === 0) process.stdout.write('no sources yet (switchboard source add <name>)\n')
      for (const s of sources) process.stdout.write(`${describe(s)}\n`)
    })

  source
    .command('rotate <name>')
    .description('give a webhook source a new secret and print it once; the old one stops working')
    .option('--secret <secret>', "the sender's own new secret (Sentry's Client Secret); - reads stdin")
    .option('--secret-file <path>', "read the sender's own new secret from a file")
    .option('--json', 'JSON, for scripts')
    .action(
      async (
        name: string,
        opts: { json?: boolean; secret?: string; secretFile?: string },
        command: Command,
      ) => {
        const onArgv: string[] = []
        const given = await readGivenSecret(opts, onArgv)
        // The hub goes by the new secret once it answers (other hubs on a shared database within a second).
        const { secret } = await hubApi(command).call('rotateSource', {
          params: { name },
          body: { secret: given },
        })
        if (onArgv.length) process.stderr.write(ARGV_WARNING)
        if (opts.json) return printJson(secret === null ? { name } : { name, secret })
        process.stdout.write(
          secret === null
            ? `source "${name}": it now takes the secret you gave (the old one no longer works)\n`
            : `source "${name}": new secret (the old one no longer works)\n  secret: ${secret}\n` +
                'Give it to the sending side in place of the old one.\n',
        )
      },
    )

  source
    .command('bind <name>')
    .description(
      "say which projects a source's events are about: the sessions of those projects get them (--none: only what each event names)",
    )
    .option('--project <dir>', 'the project in <dir>: its repository, or the folder (repeatable)', more, [])
    .option('--repo <owner/name>', 'a repository, wherever its sessions work (repeatable)', more, [])
    .option('--none', 'bound to nothing: its events reach the sessions of the repository they name, or wait')
    .action(
      async (name: string, opts: { project: string[]; repo: string[]; none?: boolean }, command: Command) => {
        if (!opts.none && !opts.project.length && !opts.repo.length)
          throw invalid('say what it is about: --project <dir>, --repo <owner/name>, or --none')
        if (opts.none && (opts.project.length || opts.repo.length))
          throw invalid('--none binds it to nothing: give it alone')
        const about = opts.none ? [] : await aboutOf(opts)
        await hubApi(command).call('bindSource', { params: { name }, body: { about } })
        process.stdout.write(
          about.length
            ? `source "${name}": its events are about ${about.join(', ')}\n`
            : `source "${name}": bound to nothing; each event reaches the sessions of the repository it names\n`,
        )
      },
    )

  source
    .command('remove <name>')
    .description('delete a webhook source; its URL answers 404 from then on')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await hubApi(command).call('removeSource', { params: { name } })
      process.stdout.write(`removed source "${name}"\n`)
    })
}
