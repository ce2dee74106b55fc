// One line for a person per GitHub event (who did what to which thing, where, and a link) and the
// attributes worth filtering on. Shapes: GitHub's "Webhook events and payloads" reference, checked
// against every example of @octokit/webhooks-examples (github-examples.test.ts); only the fields
// read are checked, so a payload that grows new fields still reads.
import * as z from 'zod'
import { ACCOUNT_LINES } from './github-accounts.js'
import { CODE_LINES } from './github-code.js'
import {
  type Context,
  linked,
  type Summarize,
  type Summary,
  user,
  who,
  within,
  words,
} from './github-lines.js'
import { REPOSITORY_LINES } from './github-repository.js'
import { THREAD_LINES } from './github-threads.js'

export type { Summary } from './github-lines.js'

const login = user.nullish()

/** What most events carry: who, and where (a repository, an organization, an installation's account). */
export const envelopeSchema = z.object({
  action: z.string().optional(),
  repository: z.object({ full_name: z.string(), html_url: z.string().optional() }).nullish(),
  organization: login,
  enterprise: z.object({ slug: z.string().optional(), name: z.string().optional() }).nullish(),
  installation: z.object({ id: z.number().optional(), account: login }).nullish(),
  marketplace_purchase: z.object({ account: login }).nullish(),
  sponsorship: z.object({ sponsorable: login }).nullish(),
  sender: login,
})
export type Envelope = z.infer<typeof envelopeSchema>

/**
 * What a delivery is about, as the attributes a hub can route on: `repository` (owner/name), the
 * `organization`, the `account` an app is installed on, a plan bought for or a sponsorship goes
 * to, the `enterprise`, the app's `installation`; and the place its line names, the narrowest.
 */
export function scopeOf(envelope: Envelope): { where: string | null; meta: Record<string, unknown> } {
  const repository = envelope.repository?.full_name
  const organization = envelope.organization?.login
  const account =
    envelope.installation?.account?.login ??
    envelope.marketplace_purchase?.account?.login ??
    envelope.sponsorship?.sponsorable?.login
  const enterprise = envelope.enterprise?.slug ?? envelope.enterprise?.name
  const where = repository
    ? repository
    : organization
      ? `organization ${organization}`
      : account
        ? `account ${account}`
        : enterprise
          ? `enterprise ${enterprise}`
          : null
  return {
    where,
    meta: { repository, organization, account, enterprise, installation: envelope.installation?.id },
  }
}

/** An event without a line of its own: "release published in org/repo by alice", and its page. */
function other(c: Context): Summary {
  const body = (c.json ?? {}) as Record<string, unknown>
  const subject = body[c.event] ?? body.comment
  const url =
    subject && typeof subject === 'object' && typeof (subject as { html_url?: unknown }).html_url === 'string'
      ? (subject as { html_url: string }).html_url
      : undefined
  const did = c.action ? ` ${words(c.action)}` : ''
  return { content: linked(`${words(c.event)}${did}${within(c)} by ${who(c)}`, url), meta: { url } }
}

const SUMMARIES = new Map<string, Summarize>([
  ...THREAD_LINES,
  ...CODE_LINES,
  ...REPOSITORY_LINES,
  ...ACCOUNT_LINES,
])

export function summarize(event: string, json: unknown, envelope: Envelope): Summary {
  const context: Context = {
    event,
    json,
    actor: envelope.sender?.login ?? null,
    action: envelope.action ?? '',
    where: scopeOf(envelope).where,
  }
  return (SUMMARIES.get(event) ?? other)(context)
}
