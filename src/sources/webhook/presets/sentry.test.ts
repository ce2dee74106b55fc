import { describe, expect, it } from 'vitest'
import {
  eventsOf,
  fixture,
  presetSource,
  receive,
  refusal,
  sentryDelivery,
} from '../../../../test/fixtures/webhooks/load.js'

// presetSource types its argument by the presets the store knows.
const source = presetSource('sentry' as never, { name: 'sentry', topic: 'sentry', preset: 'sentry' as never })

function only(resource: string, body: Buffer | object, requestId?: string) {
  const events = eventsOf(sentryDelivery(source, resource, body, requestId))
  expect(events).toHaveLength(1)
  return events[0]
}

const ISSUE_TITLE = "TypeError: Cannot read properties of undefined (reading 'total')"

describe('sentry preset', () => {
  it('makes a new issue one line naming its project, title and level, on sentry.issue', () => {
    expect(only('issue', fixture('sentry-issue-created').raw)).toMatchObject({
      topic: 'sentry.issue',
      content: `issue CHECKOUT-WEB-3F in checkout-web created: ${ISSUE_TITLE} (error) — https://acme.sentry.io/issues/4511806235/`,
      meta: {
        sentry_resource: 'issue',
        action: 'created',
        delivery: 'f1d7c4a0b2e94d56a8c3e1b0d9f2a7c6',
        project: 'checkout-web',
        organization: 'acme',
        issue_id: '4511806235',
        short_id: 'CHECKOUT-WEB-3F',
        title: ISSUE_TITLE,
        level: 'error',
        status: 'unresolved',
        substatus: 'new',
        url: 'https://acme.sentry.io/issues/4511806235/',
      },
    })
  })

  it('says who resolved or was assigned an issue', () => {
    const { json } = fixture('sentry-issue-created')
    const data = json.data as { issue: Record<string, unknown> }
    const assigned = only('issue', {
      ...json,
      action: 'assigned',
      actor: { type: 'user', id: 2, name: 'Bob Smith' },
      data: { issue: { ...data.issue, assignedTo: { type: 'user', id: '3', name: 'Carol Jones' } } },
    })
    expect(assigned?.content).toBe(
      `issue CHECKOUT-WEB-3F in checkout-web assigned to Carol Jones by Bob Smith: ${ISSUE_TITLE} (error) — https://acme.sentry.io/issues/4511806235/`,
    )
    expect(assigned?.meta).toMatchObject({ actor: 'Bob Smith', assignee: 'Carol Jones' })
  })

  it('makes an issue alert one line naming the rule, the project (from the event’s address) and the error', () => {
    expect(only('event_alert', fixture('sentry-event_alert').raw)).toMatchObject({
      topic: 'sentry.event_alert',
      content:
        `alert "Checkout errors to on-call" triggered in checkout-web: ${ISSUE_TITLE} (error, production) — ` +
        'https://sentry.io/organizations/acme/issues/4511806235/events/e4874d664c3540c1a32eab185f12c5ab/',
      meta: {
        project: 'checkout-web',
        organization: 'acme',
        rule: 'Checkout errors to on-call',
        level: 'error',
        environment: 'production',
        release: 'checkout-web@2.4.0',
        issue_id: '4511806235',
        culprit: 'submitOrder(checkout/pay)',
      },
    })
  })

  it('makes an error one line naming its project and title', () => {
    const event = (fixture('sentry-event_alert').json.data as { event: object }).event
    const e = only('error', {
      action: 'created',
      actor: { id: 'sentry', name: 'Sentry', type: 'application' },
      data: { error: event },
      installation: { uuid: '7a485448-a9e2-4c85-8a3c-4f44175783c9' },
    })
    expect(e).toMatchObject({
      topic: 'sentry.error',
      content: `error in checkout-web: ${ISSUE_TITLE} (error, production) — https://sentry.io/organizations/acme/issues/4511806235/events/e4874d664c3540c1a32eab185f12c5ab/`,
      meta: { project: 'checkout-web', level: 'error', issue_id: '4511806235' },
    })
  })

  it('makes a metric alert one line naming the rule, its projects, the state and why', () => {
    expect(only('metric_alert', fixture('sentry-metric_alert').raw)).toMatchObject({
      topic: 'sentry.metric_alert',
      content:
        'metric alert Too many checkout errors in checkout-web: critical (1000 events in the last 10 minutes) — https://sentry.io/organizations/acme/alerts/rules/details/7/',
      meta: { project: 'checkout-web', rule: 'Too many checkout errors', level: 'critical' },
    })
  })

  it('makes a comment one line naming its issue and project', () => {
    expect(only('comment', fixture('sentry-comment').raw)).toMatchObject({
      topic: 'sentry.comment',
      content:
        'carol commented on issue 4511806235 in checkout-web: Looks like the cart total is missing after a coupon is removed.',
      meta: { project: 'checkout-web', issue_id: '4511806235', actor: 'carol' },
    })
  })

  it('makes an installation one line naming the organization', () => {
    expect(only('installation', fixture('sentry-installation').raw)).toMatchObject({
      topic: 'sentry.installation',
      content: 'Carol Jones installed switchboard in organization acme',
      meta: { organization: 'acme', actor: 'Carol Jones' },
    })
  })

  it('accepts a resource it has no line for, naming the resource and its action', () => {
    const e = only('seer', { action: 'root_cause_completed', data: { run_id: 7 }, actor: { name: 'Sentry' } })
    expect(e).toMatchObject({ topic: 'sentry.seer', content: 'seer root cause completed' })
  })

  it('makes a resend of the same signed body one event, whatever its request id', () => {
    const raw = fixture('sentry-issue-created').raw
    const first = only('issue', raw, 'r-1')
    const again = only('issue', raw, 'r-2')
    expect(again?.idempotencyKey).toBe(first?.idempotencyKey)
  })

  it('refuses a bearer secret alone, a wrong signature, or a delivery without its resource', () => {
    const raw = fixture('sentry-issue-created').raw
    const bearer = refusal(() =>
      receive(source, raw, { 'sentry-hook-resource': 'issue', authorization: `Bearer ${source.secret}` }),
    )
    expect(bearer).toEqual({ status: 401, message: expect.stringMatching(/Sentry-Hook-Signature/) })
    const forged = refusal(() =>
      receive(source, raw, { 'sentry-hook-resource': 'issue', 'sentry-hook-signature': 'ab'.repeat(32) }),
    )
    expect(forged).toEqual({
      status: 401,
      message: expect.stringMatching(/Sentry-Hook-Signature does not match/),
    })
    const unnamed = refusal(() => sentryDelivery(source, '', raw))
    expect(unnamed).toEqual({ status: 400, message: expect.stringMatching(/Sentry-Hook-Resource/) })
  })
})
