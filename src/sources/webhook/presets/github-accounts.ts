// The github preset's lines for deliveries about an account rather than a repository: an app's
// installations, organizations and their members, teams and blocks, Marketplace plans, sponsorships,
// an app's authorization, and GitHub's advisory database. Each names the account or organization.
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
  within,
  words,
} from './github-lines.js'

const installationSchema = z.object({
  installation: z.object({
    id: z.number().optional(),
    app_slug: z.string().nullish(),
    account: user.nullish(),
    html_url: z.string().optional(),
  }),
  repositories: z.array(z.object({ full_name: z.string() })).optional(),
})

const INSTALLED = new Map([
  ['created', 'installed'],
  ['deleted', 'uninstalled'],
  ['suspend', 'suspended'],
  ['unsuspend', 'unsuspended'],
  ['new_permissions_accepted', 'accepted new permissions for'],
])

const repositories = (n: number) => `${n} ${n === 1 ? 'repository' : 'repositories'}`

function appOf(i: z.infer<typeof installationSchema>['installation']): string {
  const app = i.app_slug ? `the app ${i.app_slug}` : 'the app'
  return i.id === undefined ? app : `${app} (installation ${i.id})`
}

/** A GitHub App installed on, or removed from, an account. */
function installation(c: Context): Summary {
  const p = read(c, installationSchema)
  const verb = INSTALLED.get(c.action) ?? words(c.action)
  const on = c.action === 'deleted' ? 'from' : 'on'
  const repos = p.repositories ? `, ${repositories(p.repositories.length)}` : ''
  return {
    content: linked(
      `${who(c)} ${verb} ${appOf(p.installation)} ${on} ${place(c)}${repos}`,
      p.installation.html_url,
    ),
    meta: { app: p.installation.app_slug || undefined, url: p.installation.html_url },
  }
}

const repositoriesSchema = installationSchema.extend({
  repositories_added: z.array(z.object({ full_name: z.string() })).default([]),
  repositories_removed: z.array(z.object({ full_name: z.string() })).default([]),
})

/** Repositories given to, or taken from, an installation. */
function installationRepositories(c: Context): Summary {
  const p = read(c, repositoriesSchema)
  const added = c.action === 'added'
  const repos = (added ? p.repositories_added : p.repositories_removed).map((r) => r.full_name)
  const shown =
    repos.length > 3 ? `${repos.slice(0, 3).join(', ')} and ${repos.length - 3} more` : repos.join(', ')
  return {
    content: `${who(c)} ${added ? 'added' : 'removed'} ${shown || 'no repositories'} ${added ? 'to' : 'from'} ${appOf(p.installation)} on ${place(c)}`,
    meta: {
      repositories: repos.join(' ').slice(0, 500) || undefined,
      app: p.installation.app_slug || undefined,
    },
  }
}

const marketplaceSchema = z.object({
  marketplace_purchase: z.object({
    plan: named,
    billing_cycle: z.string().nullish(),
    unit_count: z.number().nullish(),
  }),
})

function marketplacePurchase(c: Context): Summary {
  const m = read(c, marketplaceSchema).marketplace_purchase
  return {
    content: happened(c.actor, c.action, `Marketplace plan ${m.plan.name} for ${place(c)}`),
    meta: { plan: m.plan.name, billing_cycle: m.billing_cycle, units: m.unit_count },
  }
}

const sponsorshipSchema = z.object({
  sponsorship: z.object({ sponsor: user, tier: named.nullish() }),
})

function sponsorship(c: Context): Summary {
  const s = read(c, sponsorshipSchema).sponsorship
  const tier = s.tier ? ` (${s.tier.name})` : ''
  return {
    content: `sponsorship of ${place(c)} by ${s.sponsor.login}${tier} ${words(c.action)}`,
    meta: { sponsor: s.sponsor.login, tier: s.tier?.name },
  }
}

/** Someone took back their authorization of the app: the account is theirs. */
function appAuthorization(c: Context): Summary {
  return {
    content: `${who(c)} ${words(c.action)} their authorization of the app`,
    meta: { account: c.actor },
  }
}

const organizationSchema = z.object({
  membership: z.object({ user: user.nullish(), role: z.string().optional() }).nullish(),
  invitation: z
    .object({ login: z.string().nullish(), email: z.string().nullish(), role: z.string().optional() })
    .nullish(),
  user: user.nullish(),
  changes: z.object({ login: z.object({ from: z.string() }).optional() }).nullish(),
})

const JOINED = new Map([
  ['member_added', ['added member', 'to']],
  ['member_removed', ['removed member', 'from']],
  ['member_invited', ['invited', 'to']],
])

function organization(c: Context): Summary {
  const p = read(c, organizationSchema)
  const member = p.membership?.user?.login ?? p.invitation?.login ?? p.invitation?.email ?? p.user?.login
  const joined = JOINED.get(c.action)
  const renamed = p.changes?.login?.from ? ` (was ${p.changes.login.from})` : ''
  const content =
    joined && member
      ? `${who(c)} ${joined[0]} ${member} ${joined[1]} ${place(c)}`
      : happened(c.actor, c.action, `${place(c)}${renamed}`)
  return { content, meta: { member, role: p.membership?.role ?? p.invitation?.role } }
}

const blockSchema = z.object({ blocked_user: user })

function orgBlock(c: Context): Summary {
  const { blocked_user } = read(c, blockSchema)
  return {
    content: `${who(c)} ${words(c.action)} ${blocked_user.login}${within(c)}`,
    meta: { blocked_user: blocked_user.login },
  }
}

const team = named.extend({ html_url: z.string().optional() })
const membershipSchema = z.object({ member: user, team: named })

function membership(c: Context): Summary {
  const p = read(c, membershipSchema)
  const [verb, to] = c.action === 'removed' ? ['removed', 'from'] : [words(c.action), 'to']
  return {
    content: `${who(c)} ${verb} ${p.member.login} ${to} team ${p.team.name}${within(c)}`,
    meta: { member: p.member.login, team: p.team.name },
  }
}

const teamSchema = z.object({ team })

const GIVEN = new Map([
  ['added_to_repository', 'gave team %s access to'],
  ['removed_from_repository', 'removed team %s from'],
])

function teamEvent(c: Context): Summary {
  const t = read(c, teamSchema).team
  const given = GIVEN.get(c.action)
  return {
    content: linked(
      given ? `${who(c)} ${given.replace('%s', t.name)} ${place(c)}` : happenedHere(c, `team ${t.name}`),
      t.html_url,
    ),
    meta: { team: t.name, url: t.html_url },
  }
}

function teamAdd(c: Context): Summary {
  const t = read(c, teamSchema).team
  return {
    content: linked(`team ${t.name} given access to ${place(c)}`, t.html_url),
    meta: { team: t.name, url: t.html_url },
  }
}

const advisorySchema = z.object({
  security_advisory: z.object({
    ghsa_id: z.string(),
    summary: z.string(),
    severity: z.string().optional(),
    cve_id: z.string().nullish(),
    html_url: z.string().optional(),
    references: z.array(z.object({ url: z.string() })).optional(),
  }),
})

/** An advisory in GitHub's advisory database: about a package anywhere, not about a repository. */
function securityAdvisory(c: Context): Summary {
  const a = read(c, advisorySchema).security_advisory
  const url = a.html_url ?? a.references?.[0]?.url
  const severity = a.severity ? ` (${a.severity})` : ''
  return {
    content: linked(
      `security advisory ${a.ghsa_id} ${words(c.action)}: ${excerpt(a.summary)}${severity}`,
      url,
    ),
    meta: { advisory: a.ghsa_id, cve: a.cve_id, severity: a.severity, url },
  }
}

const projectItemSchema = z.object({
  projects_v2_item: z.object({
    node_id: z.string(),
    project_node_id: z.string().optional(),
    content_node_id: z.string().optional(),
    content_type: z.string().optional(),
  }),
  changes: z.object({ field_value: z.object({ field_name: z.string().optional() }).optional() }).nullish(),
})

/**
 * An item of an organization's or a user's project (projects v2). GitHub's payload names the item,
 * its project and its content by node id only: those are what a reader can look up.
 */
function projectItem(c: Context): Summary {
  const p = read(c, projectItemSchema)
  const item = p.projects_v2_item
  const kind = item.content_type ? ` (${item.content_type})` : ''
  const field = p.changes?.field_value?.field_name
  return {
    content: `${happenedHere(c, `project item ${item.node_id}${kind}`)}${field ? `: ${field}` : ''}`,
    meta: {
      // Not `project`: that names what an event is about for the sentry preset (docs/design-notes.md).
      item: item.node_id,
      project_node: item.project_node_id,
      content_node: item.content_node_id,
      content_type: item.content_type,
      field,
    },
  }
}

export const ACCOUNT_LINES: [string, Summarize][] = [
  ['installation', installation],
  ['installation_repositories', installationRepositories],
  ['marketplace_purchase', marketplacePurchase],
  ['sponsorship', sponsorship],
  ['github_app_authorization', appAuthorization],
  ['organization', organization],
  ['org_block', orgBlock],
  ['membership', membership],
  ['team', teamEvent],
  ['team_add', teamAdd],
  ['projects_v2_item', projectItem],
  ['security_advisory', securityAdvisory],
]
