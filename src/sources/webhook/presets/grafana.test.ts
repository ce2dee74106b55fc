import { describe, expect, it } from 'vitest'
import {
  basicAuth,
  bearerPoster,
  eventsOf,
  fixture,
  presetSource,
  receive,
  refusal,
} from '../../../../test/fixtures/webhooks/load.js'

const source = presetSource('grafana', { name: 'grafana', topic: 'alerts.grafana' })
const post = bearerPoster(source, 'Grafana')

describe('grafana preset', () => {
  it('makes a firing group one event naming each rule, with Grafana’s links in meta', () => {
    const [e, ...more] = post(fixture('grafana-firing').raw)
    expect(more).toEqual([])
    expect(e).toMatchObject({
      topic: 'alerts.grafana',
      content:
        'FIRING: High memory usage, High CPU usage (2 alerts) — This alert was triggered for zone us-1\n' +
        'runbook: https://runbooks.example.com/platform/memory',
      meta: {
        status: 'firing',
        alerts: '2',
        team: 'blue',
        grafana_folder: 'Platform',
        org_id: '1',
        dashboard_url: 'https://grafana.example.com/d/a1b2c3d4e5/hosts?orgId=1',
        panel_url: 'https://grafana.example.com/d/a1b2c3d4e5/hosts?orgId=1&viewPanel=4',
        generator_url: 'https://grafana.example.com/alerting/grafana/cdkq1z8a6h4w0f/view?orgId=1',
        value: expect.stringContaining("var='B' labels={zone=us-1} value=92.4316"),
      },
    })
    expect(e?.meta.silence_url).toMatch(/^https:\/\/grafana\.example\.com\/alerting\/silence\/new/)
  })

  it('makes a resolved group a RESOLVED event with when it ended', () => {
    const [e, ...more] = post(fixture('grafana-resolved').raw)
    expect(more).toEqual([])
    expect(e?.content).toBe(
      'RESOLVED: Checkout error rate (1 alert) — More than 5% of checkout requests fail\n' +
        'runbook: https://runbooks.example.com/checkout/errors',
    )
    expect(e?.meta).toMatchObject({
      status: 'resolved',
      severity: 'critical',
      ends_at: '2024-05-14T10:21:00Z',
    })
  })

  it('leaves out the links Grafana sends empty, and keys a retry as the first try', () => {
    const { raw, json } = fixture('grafana-firing')
    const alerts = json.alerts as Record<string, unknown>[]
    const [first] = post(raw)
    const [cpuFirst] = post({ ...json, alerts: [alerts[1], alerts[0]] })
    expect(cpuFirst?.meta.dashboard_url).toBeUndefined()
    expect(cpuFirst?.idempotencyKey).toBe(first?.idempotencyKey)
    // A reminder carries fresh values; the group's state, and so the event, is the same.
    const [reminder] = post({ ...json, alerts: alerts.map((a) => ({ ...a, values: { B: 99, C: 1 } })) })
    expect(reminder?.idempotencyKey).toBe(first?.idempotencyKey)
  })

  it('accepts Grafana’s basic auth whose password is the source secret, whatever the username', () => {
    const raw = fixture('grafana-firing').raw
    const basic = (user: string, password: string) =>
      receive(source, raw, { authorization: basicAuth(user, password), 'user-agent': 'Grafana' })
    expect(eventsOf(basic('grafana', source.secret))).toHaveLength(1)
    expect(eventsOf(basic('', source.secret))).toHaveLength(1)
    expect(refusal(() => basic('grafana', 'guess'))).toEqual({ status: 401, message: 'wrong source secret' })
    expect(refusal(() => basic(source.secret, ''))).toEqual({ status: 401, message: 'wrong source secret' })
  })
})
