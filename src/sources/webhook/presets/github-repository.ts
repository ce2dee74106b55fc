// The github preset's lines for a repository itself: its settings, labels, milestones, projects,
// collaborators, keys and hooks, and the security alerts raised on it. An alert's number is
// `alert`, a milestone's `milestone`: `number` names an issue or pull request only.
import * as z from 'zod'
import {
  type Context,
  excerpt,
  happened,
  happenedHere,
  linked,
  named,
  place,
  read,
  type Summarize,
  type Summary,
  user,
  who,
  words,
} from './github-lines.js'

const repositorySchema = z.object({
  repository: z.object({ full_name: z.string(), html_url: z.string().optional() }),
  changes: z
    .object({
      repository: z.object({ name: z.object({ from: z.string() }).optional() }).optional(),
      owner: z
        .object({ from: z.object({ user: user.optional(), organization: user.optional() }) })
        .optional(),
    })
    .nullish(),
})

function repository(c: Context): Summary {
  const p = read(c, repositorySchema)
  const renamed = p.changes?.repository?.name?.from
  const owner = p.changes?.owner?.from
  const was = renamed
    ? ` (was ${renamed})`
    : owner
      ? ` (from ${(owner.user ?? owner.organization)?.login})`
      : ''
  return {
    content: linked(
      happened(c.actor, c.action, `repository ${p.repository.full_name}${was}`),
      p.repository.html_url,
    ),
    meta: { url: p.repository.html_url },
  }
}

const htmlUrl = z.object({ repository: z.object({ html_url: z.string().optional() }) })

function publicized(c: Context): Summary {
  const url = read(c, htmlUrl).repository.html_url
  return { content: linked(`${who(c)} made ${place(c)} public`, url), meta: { url } }
}

const star = (c: Context): Summary => ({
  content: `${who(c)} ${c.action === 'deleted' ? 'unstarred' : 'starred'} ${place(c)}`,
  meta: {},
})

const watch = (c: Context): Summary => ({ content: `${who(c)} started watching ${place(c)}`, meta: {} })

interface Named {
  thing: string
  meta: Record<string, unknown>
  url?: string | null
}

/** A thing a repository has, named from its object: "alice created label bug in acme/webshop". */
function thing<V>(key: string, schema: z.ZodType<V>, line: (value: V) => Named): Summarize {
  const payload = z.object({ [key]: schema }) as unknown as z.ZodType<Record<string, V>>
  return (c) => {
    const said = line(read(c, payload)[key] as V)
    return { content: linked(happenedHere(c, said.thing), said.url), meta: { ...said.meta, url: said.url } }
  }
}

const label = thing('label', named, (l) => ({ thing: `label ${l.name}`, meta: { label: l.name } }))

const milestone = thing(
  'milestone',
  z.object({ title: z.string(), number: z.number().optional(), html_url: z.string().optional() }),
  (m) => ({ thing: `milestone ${m.title}`, meta: { milestone: m.title }, url: m.html_url }),
)

const project = thing('project', z.object({ name: z.string(), html_url: z.string().optional() }), (p) => ({
  thing: `project ${p.name}`,
  meta: { project_name: p.name },
  url: p.html_url,
}))

const projectColumn = thing('project_column', named, (col) => ({
  thing: `project column ${col.name}`,
  meta: { column: col.name },
}))

const projectCard = thing(
  'project_card',
  z.object({ note: z.string().nullish(), content_url: z.string().nullish() }),
  (card) => {
    // A card is a note, or an issue or pull request (its API address ends with the number).
    const issue = /\/issues\/(\d+)$/.exec(card.content_url ?? '')?.[1]
    const shown = card.note ? ` "${excerpt(card.note)}"` : issue ? ` for #${issue}` : ''
    return { thing: `project card${shown}`, meta: { card_issue: issue } }
  },
)

const branchProtectionRule = thing('rule', named, (rule) => ({
  thing: `branch protection rule ${rule.name}`,
  meta: { rule: rule.name },
}))

const deployKey = thing('key', z.object({ title: z.string(), read_only: z.boolean().optional() }), (key) => ({
  thing: `deploy key ${key.title}`,
  meta: { key: key.title, read_only: key.read_only },
}))

const memberSchema = z.object({ member: user.extend({ html_url: z.string().optional() }) })

function member(c: Context): Summary {
  const { member } = read(c, memberSchema)
  return {
    content: linked(happenedHere(c, `collaborator ${member.login}`), member.html_url),
    meta: { member: member.login, url: member.html_url },
  }
}

const hookSchema = z.object({
  hook_id: z.number(),
  hook: z.object({ name: z.string().optional() }).nullish(),
})

/** GitHub's `meta` event: the webhook itself was deleted. */
function hookDeleted(c: Context): Summary {
  const p = read(c, hookSchema)
  return { content: happenedHere(c, `webhook ${p.hook_id}`), meta: { hook_id: p.hook_id } }
}

const dispatchSchema = z.object({ action: z.string(), branch: z.string().nullish() })

/** A repository_dispatch: its action is the event type its sender chose. */
function dispatch(c: Context): Summary {
  const p = read(c, dispatchSchema)
  const on = p.branch ? ` on ${p.branch}` : ''
  return {
    content: `repository dispatch ${p.action}${on} of ${place(c)} by ${who(c)}`,
    meta: { event_type: p.action, branch: p.branch },
  }
}

const importSchema = z.object({ status: z.string() })

function repositoryImport(c: Context): Summary {
  const p = read(c, importSchema)
  return { content: `import into ${place(c)}: ${p.status}`, meta: { status: p.status } }
}

const codeScanningSchema = z.object({
  ref: z.string().nullish(),
  alert: z.object({
    number: z.number(),
    html_url: z.string().optional(),
    rule: z
      .object({
        id: z.string().nullish(),
        description: z.string().nullish(),
        severity: z.string().nullish(),
        security_severity_level: z.string().nullish(),
      })
      .nullish(),
    tool: named.nullish(),
  }),
})

function codeScanningAlert(c: Context): Summary {
  const p = read(c, codeScanningSchema)
  const { alert } = p
  const rule = alert.rule?.description || alert.rule?.id
  const tool = alert.tool ? ` from ${alert.tool.name}` : ''
  return {
    content: linked(
      happenedHere(c, `code scanning alert #${alert.number}${tool}${rule ? ` (${excerpt(rule)})` : ''}`),
      alert.html_url,
    ),
    meta: {
      alert: alert.number,
      rule: alert.rule?.id,
      severity: alert.rule?.security_severity_level ?? alert.rule?.severity,
      tool: alert.tool?.name,
      ref: p.ref || undefined,
      url: alert.html_url,
    },
  }
}

const dependabotSchema = z.object({
  alert: z.object({
    number: z.number(),
    html_url: z.string().optional(),
    dependency: z.object({ package: z.object({ name: z.string(), ecosystem: z.string().optional() }) }),
    security_advisory: z
      .object({
        summary: z.string().optional(),
        severity: z.string().optional(),
        ghsa_id: z.string().optional(),
      })
      .nullish(),
  }),
})

function dependabotAlert(c: Context): Summary {
  const { alert } = read(c, dependabotSchema)
  const pkg = alert.dependency.package
  const advisory = alert.security_advisory
  const why = advisory?.summary ? `: ${excerpt(advisory.summary)}` : ''
  return {
    content: linked(
      `${happenedHere(c, `dependabot alert #${alert.number} for ${pkg.name}`)}${why}`,
      alert.html_url,
    ),
    meta: {
      alert: alert.number,
      package: pkg.name,
      ecosystem: pkg.ecosystem,
      severity: advisory?.severity,
      advisory: advisory?.ghsa_id,
      url: alert.html_url,
    },
  }
}

const vulnerabilitySchema = z.object({
  alert: z.object({
    affected_package_name: z.string(),
    affected_range: z.string().optional(),
    severity: z.string().optional(),
    ghsa_id: z.string().optional(),
    external_reference: z.string().nullish(),
  }),
})

/** This older kind of alert names its actions in the present tense. */
const ALERTED = new Map([
  ['create', 'opened'],
  ['dismiss', 'dismissed'],
  ['resolve', 'resolved'],
  ['reopen', 'reopened'],
])

/** The older kind of Dependabot alert: a vulnerable version of a package. */
function vulnerabilityAlert(c: Context): Summary {
  const { alert } = read(c, vulnerabilitySchema)
  const about = [alert.affected_range, alert.severity].filter(Boolean).join(', ')
  return {
    content: linked(
      `vulnerability alert for ${alert.affected_package_name}${about ? ` (${about})` : ''} in ${place(c)} ${ALERTED.get(c.action) ?? words(c.action)}`,
      alert.external_reference,
    ),
    meta: {
      package: alert.affected_package_name,
      severity: alert.severity,
      advisory: alert.ghsa_id,
      url: alert.external_reference,
    },
  }
}

export const REPOSITORY_LINES: [string, Summarize][] = [
  ['repository', repository],
  ['public', publicized],
  ['star', star],
  ['watch', watch],
  ['label', label],
  ['milestone', milestone],
  ['project', project],
  ['project_column', projectColumn],
  ['project_card', projectCard],
  ['branch_protection_rule', branchProtectionRule],
  ['deploy_key', deployKey],
  ['member', member],
  ['meta', hookDeleted],
  ['repository_dispatch', dispatch],
  ['repository_import', repositoryImport],
  ['code_scanning_alert', codeScanningAlert],
  ['dependabot_alert', dependabotAlert],
  ['repository_vulnerability_alert', vulnerabilityAlert],
]
