// Every example payload of @octokit/webhooks-examples delivered to the github preset as GitHub
// delivers it: each is accepted, and its one line says what it is about.
import { describe, expect, it } from 'vitest'
import { githubExamples, scopeOf, subjectOf } from '../../../../test/fixtures/webhooks/github-examples.js'
import { eventsOf, githubDelivery, presetSource, refusal } from '../../../../test/fixtures/webhooks/load.js'
import { conditionHolds, eventDocument, githubThreadOf } from '../../../core/routines.js'
import type { PresetOutcome } from '../index.js'

const source = presetSource('github', { name: 'gh', topic: 'github' })
const examples = githubExamples()

/** The event an example makes (a ping makes none: it is answered and that is all). */
function deliveredEvent(event: string, payload: object) {
  let outcome: PresetOutcome = { ignored: 'not delivered' }
  const refused = refusal(() => {
    outcome = githubDelivery(source, event, payload)
  })
  expect(refused, 'GitHub never retries a refused delivery').toBeNull()
  if (event === 'ping') {
    expect(outcome).toEqual({ ignored: expect.stringMatching(/^ping/) })
    return null
  }
  const events = eventsOf(outcome)
  expect(events).toHaveLength(1)
  return events[0] ?? null
}

describe('github preset: every example of @octokit/webhooks-examples', () => {
  it('holds examples of the events the issue names', () => {
    const events = new Set(examples.map((e) => e.event))
    for (const name of ['projects_v2_item', 'workflow_run', 'workflow_job', 'installation', 'organization'])
      expect(events).toContain(name)
    expect(examples.length).toBeGreaterThan(300)
  })

  it.each(examples.map((e) => [`${e.event} #${e.index} (${e.payload.action ?? 'no action'})`, e] as const))(
    '%s is accepted as one line naming what it is about',
    (_, { event, payload }) => {
      const e = deliveredEvent(event, payload)
      if (!e) return
      expect(e.topic).toBe(`github.${event}`)
      expect(e.content).not.toMatch(/\n/)
      // What a summary said when it did not know: never shown to a person.
      expect(e.content).not.toMatch(/\ba repository\b|\bsomeone\b|\bundefined\b|\bnull\b|\[object Object\]/)
      const scope = scopeOf(event, payload)
      if (scope) {
        expect(e.content).toContain(scope.text)
        expect(e.meta[scope.attribute]).toBe(scope.text)
      }
      if (payload.organization?.login) expect(e.meta.organization).toBe(payload.organization.login)
      const subject = subjectOf(event, payload)
      expect(subject, `what a ${event} delivery is about is decided in github-examples.ts`).not.toBeNull()
      for (const text of subject ?? []) expect(e.content).toContain(text)
    },
  )

  it('names a workflow run by its workflow when the run’s own name is empty', () => {
    const run = examples.find((e) => e.event === 'workflow_run' && e.payload.workflow_run.name === '')
    const e = deliveredEvent('workflow_run', run?.payload ?? {})
    expect(e?.content).toBe(
      'workflow test on master of octo-org/octo-repo completed: success — https://github.com/octo-org/octo-repo/actions/runs/289782451',
    )
    expect(e?.meta).toMatchObject({ workflow: 'test', conclusion: 'success', branch: 'master' })
  })

  it('names a failed job, its workflow and conclusion, so a routine can filter failed jobs', () => {
    const failed = examples.find(
      (e) => e.event === 'workflow_job' && e.payload.workflow_job.conclusion === 'failure',
    )
    const e = deliveredEvent('workflow_job', failed?.payload ?? {})
    expect(e?.content).toBe(
      'job linters of workflow CodeQL on main of Codertocat/Hello-World completed: failure — https://github.com/octo-org/octo-repo/runs/1291536064',
    )
    expect(e?.meta).toMatchObject({
      job: 'linters',
      workflow: 'CodeQL',
      conclusion: 'failure',
      status: 'completed',
    })
    // A routine's filter reads the stored event: meta.conclusion is what it matches.
    const doc = eventDocument({
      ...e,
      id: 'ev_1',
      seq: 1,
      created_at: 0,
      chat_id: null,
      sender: null,
    } as never)
    expect(conditionHolds({ path: 'meta.conclusion', equals: 'failure' }, doc)).toBe(true)
  })

  it('says which organization a project item is in, not "a repository"', () => {
    const item = examples.find((e) => e.event === 'projects_v2_item' && e.payload.action === 'archived')
    const e = deliveredEvent('projects_v2_item', item?.payload ?? {})
    expect(e?.content).toBe(
      'project item PVTI_lADOAWcTxs4ACgDdzgBWqxo (Issue) in organization Octocoders archived by Codertocat',
    )
    expect(e?.meta).toMatchObject({ organization: 'Octocoders', content_type: 'Issue' })
  })

  it('names the account an app is installed on', () => {
    const created = examples.find((e) => e.event === 'installation' && e.payload.action === 'created')
    const e = deliveredEvent('installation', created?.payload ?? {})
    expect(e?.content).toBe(
      'Codertocat installed the app (installation 957387) on account Codertocat, 1 repository — https://github.com/settings/installations/957387',
    )
    expect(e?.meta).toMatchObject({ account: 'Codertocat', installation: '957387' })
  })

  it('takes no number from a discussion or an alert, so a routine never comments on an issue of that number', () => {
    for (const event of ['discussion', 'code_scanning_alert', 'milestone']) {
      const example = examples.find((e) => e.event === event)
      const e = deliveredEvent(event, example?.payload ?? {})
      expect(e && githubThreadOf(e as never)).toBeNull()
    }
    const review = examples.find((e) => e.event === 'pull_request_review')
    const e = deliveredEvent('pull_request_review', review?.payload ?? {})
    expect(e && githubThreadOf(e as never)).toBe('Codertocat/Hello-World#2')
  })
})
