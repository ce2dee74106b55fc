import { describe, expect, it } from 'vitest'
import {
  eventsOf,
  fixture,
  presetSource,
  receive,
  refusal,
  signature,
} from '../../../../test/fixtures/webhooks/load.js'
import { topicMatches } from '../../../core/event.js'
import { POSTED_BY_SWITCHBOARD } from '../../../core/routines.js'

const source = presetSource('github', { name: 'gh', topic: 'github' })

/** A GitHub delivery of this body, signed with the source's secret. */
function delivered(event: string, body: Buffer | object, delivery = 'a1b2c3d4-1111-11ef-9a3e-0242ac120002') {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body))
  return receive(source, raw, {
    'x-github-event': event,
    'x-github-delivery': delivery,
    'x-hub-signature-256': signature(source.secret, raw),
    'user-agent': 'GitHub-Hookshot/8a2c1f0',
  })
}

function only(event: string, body: Buffer | object) {
  const events = eventsOf(delivered(event, body))
  expect(events).toHaveLength(1)
  return events[0]
}

/** A recorded delivery of each kind, and what Claude is to see of it. */
const SUMMARIES = [
  {
    event: 'pull_request',
    recorded: 'github-pull_request-opened',
    content:
      'alice opened pull request #12 in acme/webshop: Fix the login redirect loop — https://github.com/acme/webshop/pull/12',
    meta: {
      github_event: 'pull_request',
      delivery: 'a1b2c3d4-1111-11ef-9a3e-0242ac120002',
      action: 'opened',
      repository: 'acme/webshop',
      actor: 'alice',
      number: '12',
      title: 'Fix the login redirect loop',
      head: 'fix/login-redirect',
      base: 'main',
      merged: 'false',
      draft: 'false',
      url: 'https://github.com/acme/webshop/pull/12',
    },
  },
  {
    event: 'push',
    recorded: 'github-push',
    content:
      'alice pushed 3 commits to main of acme/webshop: Merge pull request #12 from acme/fix/login-redirect',
    meta: {
      branch: 'main',
      commits: '3',
      head: '4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f',
      forced: 'false',
      url: 'https://github.com/acme/webshop/compare/1a2b3c4d5e6f...4e5f6a7b8c9d',
      ref: 'refs/heads/main',
    },
  },
  {
    event: 'issues',
    recorded: 'github-issues-opened',
    content:
      'carol opened issue #34 in acme/webshop: Checkout button does nothing on Safari 17 — https://github.com/acme/webshop/issues/34',
    meta: { number: '34', state: 'open', author: 'carol', actor: 'carol' },
  },
  {
    event: 'workflow_run',
    recorded: 'github-workflow_run-completed',
    content:
      'workflow CI on main of acme/webshop completed: failure — https://github.com/acme/webshop/actions/runs/9107654321',
    meta: { workflow: 'CI', branch: 'main', conclusion: 'failure', run_number: '418' },
  },
  {
    event: 'check_run',
    recorded: 'github-check_run-completed',
    content:
      'check lint on fix/login-redirect of acme/webshop completed: success — https://github.com/acme/webshop/actions/runs/9107650000/job/24987654321',
    meta: { check: 'lint', conclusion: 'success', app: 'GitHub Actions', pull_request: '12' },
  },
  {
    event: 'release',
    recorded: 'github-release-published',
    content:
      'release v2.4.0 in acme/webshop published by alice — https://github.com/acme/webshop/releases/tag/v2.4.0',
    meta: { action: 'published', actor: 'alice', tag: 'v2.4.0' },
  },
]

describe('github preset', () => {
  it.each(SUMMARIES)('makes $event one line on github.$event, the details in meta', (expected) => {
    expect(only(expected.event, fixture(expected.recorded).raw)).toMatchObject({
      topic: `github.${expected.event}`,
      content: expected.content,
      meta: expected.meta,
      idempotencyKey: 'a1b2c3d4-1111-11ef-9a3e-0242ac120002',
    })
  })

  it('calls GitHub’s sender the actor: sender is an attribute the hub sets itself', () => {
    const e = only('pull_request', fixture('github-pull_request-opened').raw)
    expect(e?.meta.actor).toBe('alice')
    expect(e?.meta.sender).toBeUndefined()
  })

  it('is delivered to a channel on github* and not to one on the exact name github', () => {
    const e = only('pull_request', fixture('github-pull_request-opened').raw)
    expect(topicMatches(['github*'], e?.topic ?? '')).toBe(true)
    expect(topicMatches(['github.*'], e?.topic ?? '')).toBe(true)
    expect(topicMatches(['github'], e?.topic ?? '')).toBe(false)
  })

  it('says merged for a merged pull request, and names other actions after the pull request', () => {
    const { json } = fixture('github-pull_request-opened')
    const pr = json.pull_request as Record<string, unknown>
    const merged = only('pull_request', { ...json, action: 'closed', pull_request: { ...pr, merged: true } })
    expect(merged?.content).toMatch(/^alice merged pull request #12 in acme\/webshop: Fix the login/)
    const ready = only('pull_request', { ...json, action: 'ready_for_review' })
    expect(ready?.content).toMatch(/^pull request #12 in acme\/webshop ready for review by alice: Fix/)
  })

  it('makes a comment on a pull request one line naming it, with its number for the thread', () => {
    const e = only('issue_comment', {
      action: 'created',
      issue: {
        number: 12,
        title: 'Fix the login redirect loop',
        html_url: 'https://github.com/acme/webshop/pull/12',
        pull_request: { url: 'https://api.github.com/repos/acme/webshop/pulls/12' },
      },
      comment: {
        body: '@claude why does CI fail?\nIt passed yesterday.',
        html_url: 'https://github.com/acme/webshop/pull/12#issuecomment-1',
        user: { login: 'bob' },
      },
      repository: { full_name: 'acme/webshop' },
      sender: { login: 'bob' },
    })
    expect(e).toMatchObject({
      topic: 'github.issue_comment',
      content:
        'bob commented on pull request #12 (Fix the login redirect loop) in acme/webshop: @claude why does CI fail? — https://github.com/acme/webshop/pull/12#issuecomment-1',
      meta: { number: '12', pull_request: '12', author: 'bob', repository: 'acme/webshop' },
    })
  })

  it('accepts an event it has no line for, with digits in its name, naming the organization it is in', () => {
    const e = only('projects_v2', {
      action: 'edited',
      projects_v2: { node_id: 'PVT_kwDOAWcTxs4ACgDd', title: 'Roadmap' },
      organization: { login: 'acme' },
      sender: { login: 'alice' },
    })
    expect(e).toMatchObject({
      topic: 'github.projects_v2',
      content: 'projects v2 edited in organization acme by alice',
      meta: { github_event: 'projects_v2', organization: 'acme', actor: 'alice' },
    })
  })

  it('publishes nothing for a comment a routine posted, so a routine on comments does not answer itself', () => {
    const comment = {
      action: 'created',
      issue: { number: 12, title: 'Fix it', html_url: 'https://github.com/acme/webshop/pull/12' },
      comment: {
        body: `routine triage: run run_1 done: fixed\n\n${POSTED_BY_SWITCHBOARD}`,
        html_url: 'https://github.com/acme/webshop/pull/12#issuecomment-2',
        user: { login: 'switchboard-bot' },
      },
      repository: { full_name: 'acme/webshop' },
      sender: { login: 'switchboard-bot' },
    }
    expect(delivered('issue_comment', comment)).toEqual({
      ignored: 'a comment a routine posted: nothing was published',
    })
  })

  it('says a branch was deleted when a push deletes it', () => {
    const { json } = fixture('github-push')
    const e = only('push', {
      ...json,
      ref: 'refs/heads/fix/login-redirect',
      deleted: true,
      after: '0000000000000000000000000000000000000000',
      commits: [],
      head_commit: null,
    })
    expect(e?.content).toBe('alice deleted branch fix/login-redirect of acme/webshop')
  })

  it('answers a ping and publishes nothing', () => {
    expect(delivered('ping', fixture('github-ping').raw)).toEqual({
      ignored: 'ping: GitHub checked the webhook; nothing was published',
    })
  })

  it('refuses a bearer secret alone, saying a signature is required', () => {
    const raw = fixture('github-pull_request-opened').raw
    const refused = refusal(() =>
      receive(source, raw, { 'x-github-event': 'pull_request', authorization: `Bearer ${source.secret}` }),
    )
    expect(refused?.status).toBe(401)
    expect(refused?.message).toMatch(/X-Hub-Signature-256.*a bearer secret alone is refused/)
  })

  it('refuses a request without an event name, or a payload of another shape, with the reason', () => {
    const raw = fixture('github-pull_request-opened').raw
    const unnamed = refusal(() =>
      receive(source, raw, { 'x-hub-signature-256': signature(source.secret, raw) }),
    )
    expect(unnamed).toEqual({ status: 400, message: expect.stringMatching(/missing X-GitHub-Event/) })
    const wrong = refusal(() => delivered('pull_request', { action: 'opened', number: 12 }))
    expect(wrong).toEqual({
      status: 400,
      message: expect.stringMatching(/^github pull_request payload: pull_request: /),
    })
  })

  it('makes a redelivery the same event, by its delivery id', () => {
    const raw = fixture('github-issues-opened').raw
    const [first] = eventsOf(delivered('issues', raw, 'd-1'))
    const [again] = eventsOf(delivered('issues', raw, 'd-1'))
    expect(again?.idempotencyKey).toBe(first?.idempotencyKey)
    expect(again?.idempotencyKey).toBe('d-1')
  })
})
