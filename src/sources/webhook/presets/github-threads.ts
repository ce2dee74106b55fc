// The github preset's lines for conversations: pull requests, issues, reviews, discussions and their
// comments, each naming its number and title. `number` and `pull_request` name an issue or pull
// request only (routines comment on that thread, core/routines.ts); a discussion's is `discussion`.
import * as z from 'zod'
import {
  type Context,
  excerpt,
  happened,
  linked,
  named,
  read,
  type Summarize,
  type Summary,
  user,
  within,
  words,
} from './github-lines.js'

const issueLike = z.object({
  number: z.number(),
  title: z.string(),
  html_url: z.string(),
  state: z.string().optional(),
  user: user.nullish(),
})

/** "pull request #12 (Fix the login redirect loop) in acme/webshop": a thread a comment is on. */
const thread = (kind: string, t: { number: number; title: string }, c: Context) =>
  `${kind} #${t.number} (${t.title})${within(c)}`

const pullRequestSchema = z.object({
  action: z.string(),
  number: z.number(),
  pull_request: issueLike.extend({
    merged: z.boolean().nullable().optional(),
    draft: z.boolean().optional(),
    head: z.object({ ref: z.string() }),
    base: z.object({ ref: z.string() }),
  }),
  requested_reviewer: user.nullish(),
  label: named.nullish(),
})

function pullRequest(c: Context): Summary {
  const p = read(c, pullRequestSchema)
  const pr = p.pull_request
  const action = p.action === 'closed' && pr.merged ? 'merged' : p.action
  return {
    content: linked(
      `${happened(c.actor, action, `pull request #${p.number}${within(c)}`)}: ${pr.title}`,
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
  label: named.nullish(),
  assignee: user.nullish(),
})

function issues(c: Context): Summary {
  const p = read(c, issuesSchema)
  const issue = p.issue
  return {
    content: linked(
      `${happened(c.actor, p.action, `issue #${issue.number}${within(c)}`)}: ${issue.title}`,
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

const comment = z.object({ body: z.string().nullish(), html_url: z.string(), user: user.nullish() })

/** "bob commented on <thread>: <first line>", or "bob edited comment on <thread>". */
function commented(c: Context, on: string, body: string | null | undefined): string {
  if (c.action === 'created' && c.actor) return `${c.actor} commented on ${on}: ${excerpt(body)}`
  return happened(c.actor, c.action, `comment on ${on}`)
}

const issueCommentSchema = z.object({
  issue: issueLike.extend({ pull_request: z.object({}).passthrough().optional() }),
  comment,
})

/** A comment on an issue or a pull request (GitHub sends both as issue_comment). */
function issueComment(c: Context): Summary {
  const p = read(c, issueCommentSchema)
  const on = thread(p.issue.pull_request ? 'pull request' : 'issue', p.issue, c)
  return {
    content: linked(commented(c, on, p.comment.body), p.comment.html_url),
    meta: {
      number: p.issue.number,
      title: p.issue.title,
      pull_request: p.issue.pull_request ? p.issue.number : undefined,
      author: p.comment.user?.login,
      url: p.comment.html_url,
    },
  }
}

const pullRequestRef = z.object({ number: z.number(), title: z.string(), html_url: z.string().optional() })
const prMeta = (pr: { number: number; title: string }) => ({
  number: pr.number,
  pull_request: pr.number,
  title: pr.title,
})

const REVIEWED = new Map([
  ['approved', 'approved'],
  ['changes_requested', 'requested changes on'],
  ['commented', 'reviewed'],
])

const reviewSchema = z.object({
  pull_request: pullRequestRef,
  review: z.object({ state: z.string(), body: z.string().nullish(), html_url: z.string().optional() }),
})

function pullRequestReview(c: Context): Summary {
  const p = read(c, reviewSchema)
  const on = thread('pull request', p.pull_request, c)
  const verb = REVIEWED.get(p.review.state) ?? `reviewed (${words(p.review.state)})`
  const said = p.review.body ? `: ${excerpt(p.review.body)}` : ''
  const line =
    c.action === 'submitted' && c.actor
      ? `${c.actor} ${verb} ${on}${said}`
      : happened(c.actor, c.action, `review of ${on}`)
  return {
    content: linked(line, p.review.html_url ?? p.pull_request.html_url),
    meta: { ...prMeta(p.pull_request), review_state: p.review.state, url: p.review.html_url },
  }
}

const reviewCommentSchema = z.object({
  pull_request: pullRequestRef,
  comment: comment.extend({ path: z.string().nullish() }),
})

function pullRequestReviewComment(c: Context): Summary {
  const p = read(c, reviewCommentSchema)
  const on = thread('pull request', p.pull_request, c)
  return {
    content: linked(commented(c, on, p.comment.body), p.comment.html_url),
    meta: {
      ...prMeta(p.pull_request),
      path: p.comment.path,
      author: p.comment.user?.login,
      url: p.comment.html_url,
    },
  }
}

const reviewThreadSchema = z.object({
  pull_request: pullRequestRef,
  thread: z.object({
    comments: z.array(z.object({ html_url: z.string().optional(), path: z.string().nullish() })).default([]),
  }),
})

function pullRequestReviewThread(c: Context): Summary {
  const p = read(c, reviewThreadSchema)
  const [first] = p.thread.comments
  const url = first?.html_url ?? p.pull_request.html_url
  return {
    content: linked(
      happened(c.actor, c.action, `review thread on ${thread('pull request', p.pull_request, c)}`),
      url,
    ),
    meta: { ...prMeta(p.pull_request), path: first?.path, url },
  }
}

const discussionSchema = z.object({
  discussion: z.object({
    number: z.number(),
    title: z.string(),
    html_url: z.string(),
    category: named.nullish(),
  }),
})
const discussionMeta = (d: z.infer<typeof discussionSchema>['discussion']) => ({
  discussion: d.number,
  title: d.title,
  category: d.category?.name,
})

function discussion(c: Context): Summary {
  const { discussion: d } = read(c, discussionSchema)
  return {
    content: linked(
      `${happened(c.actor, c.action, `discussion #${d.number}${within(c)}`)}: ${d.title}`,
      d.html_url,
    ),
    meta: { ...discussionMeta(d), url: d.html_url },
  }
}

const discussionCommentSchema = discussionSchema.extend({ comment })

function discussionComment(c: Context): Summary {
  const p = read(c, discussionCommentSchema)
  return {
    content: linked(commented(c, thread('discussion', p.discussion, c), p.comment.body), p.comment.html_url),
    meta: { ...discussionMeta(p.discussion), author: p.comment.user?.login, url: p.comment.html_url },
  }
}

export const THREAD_LINES: [string, Summarize][] = [
  ['pull_request', pullRequest],
  ['issues', issues],
  ['issue_comment', issueComment],
  ['pull_request_review', pullRequestReview],
  ['pull_request_review_comment', pullRequestReviewComment],
  ['pull_request_review_thread', pullRequestReviewThread],
  ['discussion', discussion],
  ['discussion_comment', discussionComment],
]
