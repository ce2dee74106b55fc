// One line for a person per Sentry webhook (what happened to which issue or alert, in which project,
// how severe, and a link) and the attributes worth filtering on, `project` first. Shapes: Sentry's
// integration platform webhook documentation; only the fields read are checked.
import * as z from 'zod'
import { shaped } from './preset.js'

/** What every delivery carries: the action, who did it, the resource's data. */
export const sentryEnvelope = z.object({
  action: z.string().optional(),
  actor: z
    .object({ type: z.string().optional(), name: z.union([z.string(), z.number()]).optional() })
    .nullish()
    .transform((a) => (a ? { type: a.type, name: a.name === undefined ? undefined : String(a.name) } : null)),
  data: z.record(z.string(), z.unknown()).default({}),
})
export type SentryEnvelope = z.infer<typeof sentryEnvelope>

export interface Summary {
  content: string
  meta: Record<string, unknown>
}

interface Context {
  resource: string
  action: string
  data: unknown
  /** Who did it when a person did (Sentry's own work is done "by" Sentry: not worth a word). */
  person: string | null
}

const words = (name: string) => name.replace(/_/g, ' ')
/** The first line of a text Sentry wrote; its documented examples escape the line break. */
const firstLine = (text: string) => (text.split(/\n|\\n/)[0] ?? '').trim()
const linked = (line: string, url: string | null | undefined) => (url ? `${line} — ${url}` : line)
const read = <T>(c: Context, schema: z.ZodType<T>) => shaped(c.data, schema, `sentry ${c.resource}`)

/**
 * The organization and project an event's API address names
 * (`/api/0/projects/<organization>/<project>/events/<id>/`): an event's payload names its project
 * by number only. The organization also stands in a web address's `/organizations/<slug>/`.
 */
function placeOf(
  apiUrl?: string | null,
  webUrl?: string | null,
): { organization?: string; project?: string } {
  const api = /\/projects\/([^/]+)\/([^/]+)\//.exec(apiUrl ?? '')
  if (api) return { organization: api[1], project: api[2] }
  return { organization: /\/organizations\/([^/]+)\//.exec(webUrl ?? '')?.[1] }
}

const inProject = (project: string | undefined) => (project ? ` in ${project}` : '')

const issueSchema = z.object({
  issue: z.object({
    id: z.union([z.string(), z.number()]).transform(String),
    shortId: z.string().optional(),
    title: z.string(),
    culprit: z.string().nullish(),
    level: z.string().nullish(),
    status: z.string().nullish(),
    substatus: z.string().nullish(),
    project: z.object({ slug: z.string() }).nullish(),
    assignedTo: z.object({ name: z.string().optional(), email: z.string().optional() }).nullish(),
    web_url: z.string().nullish(),
    permalink: z.string().nullish(),
    url: z.string().nullish(),
    project_url: z.string().nullish(),
  }),
})

/** An issue made, resolved, assigned, archived or unresolved. */
function issue(c: Context): Summary {
  const { issue: i } = read(c, issueSchema)
  const project = i.project?.slug
  const url = i.web_url || i.permalink || undefined
  const assignee = i.assignedTo?.name ?? i.assignedTo?.email
  const to = c.action === 'assigned' && assignee ? ` to ${assignee}` : ''
  const by = c.person ? ` by ${c.person}` : ''
  const level = i.level ? ` (${i.level})` : ''
  return {
    content: linked(
      `issue ${i.shortId ?? i.id}${inProject(project)} ${words(c.action)}${to}${by}: ${i.title}${level}`,
      url,
    ),
    meta: {
      project,
      organization:
        /\/organizations\/([^/]+)\//.exec(i.url ?? '')?.[1] ?? placeOf(i.project_url).organization,
      issue_id: i.id,
      short_id: i.shortId,
      title: i.title,
      level: i.level,
      status: i.status,
      substatus: i.substatus,
      culprit: i.culprit,
      assignee,
      url,
    },
  }
}

const eventSchema = z.object({
  title: z.string(),
  level: z.string().nullish(),
  culprit: z.string().nullish(),
  environment: z.string().nullish(),
  release: z.string().nullish(),
  issue_id: z.union([z.string(), z.number()]).transform(String).nullish(),
  event_id: z.string().nullish(),
  url: z.string().nullish(),
  web_url: z.string().nullish(),
})
type SentryEvent = z.infer<typeof eventSchema>

/** An error event's line after its lead: where, what, how severe, in which environment. */
function eventSummary(lead: string, e: SentryEvent, extra: Record<string, unknown> = {}): Summary {
  const place = placeOf(e.url, e.web_url)
  const about = [e.level, e.environment].filter(Boolean).join(', ')
  return {
    content: linked(`${lead}${inProject(place.project)}: ${e.title}${about ? ` (${about})` : ''}`, e.web_url),
    meta: {
      project: place.project,
      organization: place.organization,
      ...extra,
      title: e.title,
      level: e.level,
      environment: e.environment,
      release: e.release,
      issue_id: e.issue_id,
      event_id: e.event_id,
      culprit: e.culprit,
      url: e.web_url,
    },
  }
}

const eventAlertSchema = z.object({ event: eventSchema, triggered_rule: z.string().nullish() })

/** An issue alert rule fired on an event (the integration is the rule's action). */
function eventAlert(c: Context): Summary {
  const p = read(c, eventAlertSchema)
  const rule = p.triggered_rule ? ` "${p.triggered_rule}"` : ''
  return eventSummary(`alert${rule} ${words(c.action)}`, p.event, { rule: p.triggered_rule })
}

const errorSchema = z.object({ error: eventSchema })

function error(c: Context): Summary {
  return eventSummary('error', read(c, errorSchema).error)
}

const metricAlertSchema = z.object({
  description_title: z.string().nullish(),
  description_text: z.string().nullish(),
  web_url: z.string().nullish(),
  metric_alert: z.object({
    title: z.string().nullish(),
    projects: z.array(z.string()).default([]),
    alert_rule: z.object({ name: z.string(), projects: z.array(z.string()).default([]) }).nullish(),
  }),
})

/** A metric alert's incident became critical, warning or resolved. */
function metricAlert(c: Context): Summary {
  const p = read(c, metricAlertSchema)
  const incident = p.metric_alert
  const rule = incident.alert_rule?.name ?? incident.title ?? p.description_title ?? 'metric alert'
  const projects = incident.projects.length > 0 ? incident.projects : (incident.alert_rule?.projects ?? [])
  const why = p.description_text ? ` (${firstLine(p.description_text)})` : ''
  return {
    content: linked(`metric alert ${rule}${inProject(projects.join(', '))}: ${c.action}${why}`, p.web_url),
    meta: {
      // One project names what it is about; an alert over several names the first, and all in `projects`.
      project: projects[0],
      projects: projects.length > 1 ? projects.join(' ') : undefined,
      organization: placeOf(null, p.web_url).organization,
      rule,
      level: c.action,
      url: p.web_url,
    },
  }
}

const commentSchema = z.object({
  comment: z.string().nullish(),
  project_slug: z.string().nullish(),
  issue_id: z.union([z.string(), z.number()]).transform(String),
  comment_id: z.union([z.string(), z.number()]).transform(String).nullish(),
})

/** A comment on an issue, made, updated or deleted. */
function comment(c: Context): Summary {
  const p = read(c, commentSchema)
  const on = `issue ${p.issue_id}${inProject(p.project_slug ?? undefined)}`
  const line = !c.person
    ? `comment on ${on} ${words(c.action)}`
    : c.action === 'created'
      ? `${c.person} commented on ${on}: ${firstLine(p.comment ?? '')}`
      : `${c.person} ${words(c.action)} a comment on ${on}`
  return {
    content: line,
    meta: { project: p.project_slug, issue_id: p.issue_id, comment_id: p.comment_id },
  }
}

const installationSchema = z.object({
  installation: z.object({
    organization: z.object({ slug: z.string() }).nullish(),
    app: z.object({ slug: z.string() }).nullish(),
    status: z.string().nullish(),
  }),
})

const INSTALLED = new Map([
  ['created', 'installed'],
  ['deleted', 'uninstalled'],
])

/** The integration installed in, or removed from, an organization. */
function installation(c: Context): Summary {
  const { installation: i } = read(c, installationSchema)
  const organization = i.organization?.slug
  const app = i.app?.slug ?? 'the integration'
  const where = organization ? ` in organization ${organization}` : ''
  const verb = INSTALLED.get(c.action) ?? words(c.action)
  return {
    content: `${c.person ?? 'Sentry'} ${verb} ${app}${where}`,
    meta: { organization, app: i.app?.slug, status: i.status },
  }
}

/** A resource without a line of its own: what it is, what happened, and the project when it names one. */
function other(c: Context): Summary {
  const data = (c.data ?? {}) as Record<string, unknown>
  const subject = (data[c.resource] ?? {}) as Record<string, unknown>
  const project = typeof data.project_slug === 'string' ? data.project_slug : undefined
  const url = typeof subject.web_url === 'string' ? subject.web_url : undefined
  const did = c.action ? ` ${words(c.action)}` : ''
  return { content: linked(`${words(c.resource)}${did}${inProject(project)}`, url), meta: { project, url } }
}

const SUMMARIES = new Map<string, (c: Context) => Summary>([
  ['issue', issue],
  ['event_alert', eventAlert],
  ['error', error],
  ['metric_alert', metricAlert],
  ['comment', comment],
  ['installation', installation],
])

export function summarizeSentry(resource: string, envelope: SentryEnvelope): Summary {
  const context: Context = {
    resource,
    action: envelope.action ?? '',
    data: envelope.data,
    person: envelope.actor?.type === 'user' ? (envelope.actor.name ?? null) : null,
  }
  return (SUMMARIES.get(resource) ?? other)(context)
}
