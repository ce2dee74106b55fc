// One line for a person per GitHub event (who did what to which thing, where, and a link) and the
// attributes worth filtering on. Shapes: GitHub's "Webhook events and payloads" reference; only the
// fields read here are checked, so a payload that grows new fields still reads.
import { z } from 'zod'
import { shaped } from './preset.js'

const user = z.object({ login: z.string() })

/** What most events carry. */
export const envelopeSchema = z.object({
  action: z.string().optional(),
  repository: z.object({ full_name: z.string(), html_url: z.string().optional() }).optional(),
  sender: user.optional(),
})
export type Envelope = z.infer<typeof envelopeSchema>

export interface Summary {
  content: string
  meta: Record<string, unknown>
}

interface Context {
  event: string
  json: unknown
  actor: string
  repo: string
  action: string
}

const words = (name: string) => name.replace(/_/g, ' ')
const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim()
const linked = (line: string, url: string | null | undefined) => (url ? `${line} — ${url}` : line)

/** Actions that read well as "alice <verb> pull request #12"; the others read "… #12 <action> by alice". */
const ACTIVE = new Map([
  ['opened', 'opened'],
  ['closed', 'closed'],
  ['merged', 'merged'],
  ['reopened', 'reopened'],
  ['edited', 'edited'],
  ['synchronize', 'pushed to'],
])

function happened(actor: string, action: string, thing: string): string {
  const verb = ACTIVE.get(action)
  return verb ? `${actor} ${verb} ${thing}` : `${thing} ${words(action)} by ${actor}`
}

function refName(ref: string): { kind: 'branch' | 'tag' | 'ref'; name: string } {
  if (ref.startsWith('refs/heads/')) return { kind: 'branch', name: ref.slice('refs/heads/'.length) }
  if (ref.startsWith('refs/tags/')) return { kind: 'tag', name: ref.slice('refs/tags/'.length) }
  return { kind: 'ref', name: ref }
}

const pushSchema = z.object({
  ref: z.string(),
  after: z.string().optional(),
  created: z.boolean().default(false),
  deleted: z.boolean().default(false),
  forced: z.boolean().default(false),
  compare: z.string().optional(),
  commits: z.array(z.object({ id: z.string(), message: z.string() })).default([]),
  head_commit: z.object({ id: z.string(), message: z.string() }).nullable().optional(),
})

function push(c: Context): Summary {
  const p = shaped(c.json, pushSchema, 'github push')
  const ref = refName(p.ref)
  const n = p.commits.length
  const named = `${ref.kind} ${ref.name} of ${c.repo}`
  let content: string
  if (p.deleted) content = `${c.actor} deleted ${named}`
  else if (p.created && n === 0) content = `${c.actor} created ${named}`
  else {
    // "to main", but "to tag v2.4.0": a branch is what a push usually goes to.
    const to = ref.kind === 'branch' ? `${ref.name} of ${c.repo}` : named
    const head = p.head_commit ? `: ${firstLine(p.head_commit.message)}` : ''
    content = `${c.actor} ${p.forced ? 'force-pushed' : 'pushed'} ${n} commit${n === 1 ? '' : 's'} to ${to}${head}`
  }
  return {
    content,
    meta: { [ref.kind]: ref.name, commits: n, head: p.after, forced: p.forced, url: p.compare },
  }
}

const issueLike = z.object({
  number: z.number(),
  title: z.string(),
  html_url: z.string(),
  state: z.string().optional(),
  user: user.optional(),
})
const named = z.object({ name: z.string() })

const pullRequestSchema = z.object({
  action: z.string(),
  number: z.number(),
  pull_request: issueLike.extend({
    merged: z.boolean().nullable().optional(),
    draft: z.boolean().optional(),
    head: z.object({ ref: z.string() }),
    base: z.object({ ref: z.string() }),
  }),
  requested_reviewer: user.optional(),
  label: named.optional(),
})

function pullRequest(c: Context): Summary {
  const p = shaped(c.json, pullRequestSchema, 'github pull_request')
  const pr = p.pull_request
  const action = p.action === 'closed' && pr.merged ? 'merged' : p.action
  return {
    content: linked(
      `${happened(c.actor, action, `pull request #${p.number} in ${c.repo}`)}: ${pr.title}`,
      pr.html_url,
    ),
    meta: {
      number: p.number,
      title: pr.title,
      state: pr.state,
      merged: pr.merged,
      draft: pr.draft,
      head: pr.head.ref,
      base: pr.base.ref,
      author: pr.user?.login,
      reviewer: p.requested_reviewer?.login,
      label: p.label?.name,
      url: pr.html_url,
    },
  }
}

const issuesSchema = z.object({
  action: z.string(),
  issue: issueLike.extend({ state_reason: z.string().nullable().optional() }),
  label: named.optional(),
  assignee: user.nullable().optional(),
})

function issues(c: Context): Summary {
  const p = shaped(c.json, issuesSchema, 'github issues')
  const issue = p.issue
  return {
    content: linked(
      `${happened(c.actor, p.action, `issue #${issue.number} in ${c.repo}`)}: ${issue.title}`,
      issue.html_url,
    ),
    meta: {
      number: issue.number,
      title: issue.title,
      state: issue.state,
      state_reason: issue.state_reason,
      author: issue.user?.login,
      assignee: p.assignee?.login,
      label: p.label?.name,
      url: issue.html_url,
    },
  }
}

const issueCommentSchema = z.object({
  action: z.string(),
  issue: issueLike.extend({ pull_request: z.object({}).passthrough().optional() }),
  comment: z.object({ body: z.string(), html_url: z.string(), user: user.optional() }),
})

/** A comment on an issue or a pull request (GitHub sends both as issue_comment). */
function issueComment(c: Context): Summary {
  const p = shaped(c.json, issueCommentSchema, 'github issue_comment')
  const thing = `${p.issue.pull_request ? 'pull request' : 'issue'} #${p.issue.number} in ${c.repo}`
  const line =
    p.action === 'created'
      ? `${c.actor} commented on ${thing}: ${firstLine(p.comment.body)}`
      : `comment on ${thing} ${words(p.action)} by ${c.actor}`
  return {
    content: linked(line, p.comment.html_url),
    meta: {
      number: p.issue.number,
      title: p.issue.title,
      pull_request: p.issue.pull_request ? p.issue.number : undefined,
      author: p.comment.user?.login,
      url: p.comment.html_url,
    },
  }
}

/** "completed: failure", or what is under way ("requested", "in progress"). */
const outcome = (action: string, conclusion: string | null | undefined) =>
  action === 'completed' ? `completed: ${conclusion ?? 'no conclusion'}` : words(action)

const workflowRunSchema = z.object({
  action: z.string(),
  workflow_run: z.object({
    name: z.string().nullable().optional(),
    head_branch: z.string().nullable().optional(),
    head_sha: z.string(),
    status: z.string().nullable().optional(),
    conclusion: z.string().nullable().optional(),
    html_url: z.string(),
    run_number: z.number().optional(),
    event: z.string().optional(),
  }),
  workflow: z.object({ name: z.string().optional(), path: z.string().optional() }).nullable().optional(),
})

function workflowRun(c: Context): Summary {
  const p = shaped(c.json, workflowRunSchema, 'github workflow_run')
  const run = p.workflow_run
  const name = run.name ?? p.workflow?.name ?? 'run'
  const on = run.head_branch ?? run.head_sha.slice(0, 7)
  return {
    content: linked(
      `workflow ${name} on ${on} of ${c.repo} ${outcome(p.action, run.conclusion)}`,
      run.html_url,
    ),
    meta: {
      workflow: name,
      branch: run.head_branch,
      head: run.head_sha,
      status: run.status,
      conclusion: run.conclusion,
      run_number: run.run_number,
      trigger: run.event,
      url: run.html_url,
    },
  }
}

const checkRunSchema = z.object({
  action: z.string(),
  check_run: z.object({
    name: z.string(),
    head_sha: z.string(),
    status: z.string().nullable().optional(),
    conclusion: z.string().nullable().optional(),
    html_url: z.string().nullable().optional(),
    details_url: z.string().nullable().optional(),
    check_suite: z.object({ head_branch: z.string().nullable().optional() }).nullable().optional(),
    app: named.nullable().optional(),
    pull_requests: z.array(z.object({ number: z.number() })).optional(),
  }),
})

function checkRun(c: Context): Summary {
  const p = shaped(c.json, checkRunSchema, 'github check_run')
  const run = p.check_run
  const branch = run.check_suite?.head_branch
  const url = run.html_url ?? run.details_url
  return {
    content: linked(
      `check ${run.name} on ${branch ?? run.head_sha.slice(0, 7)} of ${c.repo} ${outcome(p.action, run.conclusion)}`,
      url,
    ),
    meta: {
      check: run.name,
      branch,
      head: run.head_sha,
      status: run.status,
      conclusion: run.conclusion,
      app: run.app?.name,
      // The pull request the check ran for (the first, when a commit heads several): its thread.
      pull_request: run.pull_requests?.[0]?.number,
      url,
    },
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
  return { content: linked(`${words(c.event)}${did} in ${c.repo} by ${c.actor}`, url), meta: { url } }
}

const SUMMARIES = new Map<string, (c: Context) => Summary>([
  ['push', push],
  ['pull_request', pullRequest],
  ['issues', issues],
  ['workflow_run', workflowRun],
  ['check_run', checkRun],
  ['issue_comment', issueComment],
])

export function summarize(event: string, json: unknown, envelope: Envelope): Summary {
  const context: Context = {
    event,
    json,
    actor: envelope.sender?.login ?? 'someone',
    repo: envelope.repository?.full_name ?? 'a repository',
    action: envelope.action ?? '',
  }
  return (SUMMARIES.get(event) ?? other)(context)
}
