import { describe, expect, it } from 'vitest'
import {
  bearerPoster,
  eventsOf,
  fixture,
  presetSource,
  receive,
  refusal,
} from '../../../../test/fixtures/webhooks/load.js'

const source = presetSource('alertmanager', { name: 'prom', topic: 'alerts' })
const post = bearerPoster(source, 'Alertmanager/0.27.0')

describe('alertmanager preset', () => {
  it('makes a firing group one event: name, count, summary and runbook; common labels in meta', () => {
    const [e, ...more] = post(fixture('alertmanager-firing').raw)
    expect(more).toEqual([])
    expect(e).toMatchObject({
      topic: 'alerts',
      content:
        'FIRING: HighRequestLatency (2 alerts) — Checkout p99 latency above 500ms\n' +
        'runbook: https://runbooks.example.com/checkout/high-latency',
      meta: {
        status: 'firing',
        alertname: 'HighRequestLatency',
        alerts: '2',
        receiver: 'switchboard',
        severity: 'critical',
        service: 'checkout',
        job: 'api',
        external_url: 'http://alertmanager.prod:9093',
        runbook_url: 'https://runbooks.example.com/checkout/high-latency',
        starts_at: '2024-05-14T09:31:15.284Z',
      },
    })
    // Not common to the group: each alert has its own.
    expect(e?.meta.instance).toBeUndefined()
  })

  it('names the service a group is about as `service`, from the label its alerts share that names one', () => {
    const { json } = fixture('alertmanager-firing')
    const alerts = json.alerts as { labels: Record<string, string> }[]
    const relabel = (labels: (i: number) => Record<string, string>) => ({
      ...json,
      alerts: alerts.map((a, i) => ({ ...a, labels: labels(i) })),
    })
    const byApp = post(
      relabel((i) => ({ alertname: 'HighRequestLatency', instance: `api-${i}`, app: 'checkout' })),
    )
    expect(byApp[0]?.meta).toMatchObject({ service: 'checkout', app: 'checkout' })
    const k8s = post(
      relabel(() => ({ alertname: 'HighRequestLatency', 'app.kubernetes.io/name': 'checkout-api' })),
    )
    expect(k8s[0]?.meta.service).toBe('checkout-api')
    // Alerts about two services: the group is about neither alone.
    const mixed = post(
      relabel((i) => ({ alertname: 'HighRequestLatency', app: i === 0 ? 'checkout' : 'cart' })),
    )
    expect(mixed[0]?.meta.service).toBeUndefined()
  })

  it('makes a group with firing and resolved alerts two events, firing first', () => {
    const [firing, resolved, ...more] = post(fixture('alertmanager-mixed').raw)
    expect(more).toEqual([])
    expect(firing?.content).toBe(
      'FIRING: DiskWillFillIn4Hours (1 alert) — Disk on db-2.prod will fill within 4 hours\n' +
        'runbook: https://runbooks.example.com/node/disk-will-fill',
    )
    expect(resolved?.content).toBe(
      'RESOLVED: DiskWillFillIn4Hours (1 alert) — Disk on db-1.prod will fill within 4 hours\n' +
        'runbook: https://runbooks.example.com/node/disk-will-fill',
    )
    expect(firing?.meta).toMatchObject({ status: 'firing', instance: 'db-2.prod:9100' })
    expect(resolved?.meta).toMatchObject({
      status: 'resolved',
      instance: 'db-1.prod:9100',
      ends_at: '2024-05-14T08:12:30.511Z',
    })
    expect(firing?.idempotencyKey).not.toBe(resolved?.idempotencyKey)
  })

  it('gives a retried POST the same keys, and a changed group new ones', () => {
    const { raw, json } = fixture('alertmanager-firing')
    const [first] = post(raw)
    const [retry] = post(raw)
    expect(retry?.idempotencyKey).toBe(first?.idempotencyKey)
    const alerts = json.alerts as Record<string, unknown>[]
    const [reordered] = post({ ...json, alerts: [...alerts].reverse() })
    expect(reordered?.idempotencyKey).toBe(first?.idempotencyKey)
    const [again] = post({ ...json, alerts: [{ ...alerts[0], startsAt: '2024-05-14T13:02:00Z' }, alerts[1]] })
    expect(again?.idempotencyKey).not.toBe(first?.idempotencyKey)
  })

  it('says without a runbook or summary only what fires', () => {
    const { json } = fixture('alertmanager-firing')
    const alerts = (json.alerts as Record<string, unknown>[]).map((a) => ({ ...a, annotations: {} }))
    const [e] = post({ ...json, alerts, commonAnnotations: {} })
    expect(e?.content).toBe('FIRING: HighRequestLatency (2 alerts)')
  })

  it('refuses a body that is not an alert group, naming what is wrong', () => {
    expect(refusal(() => post({ status: 'firing' }))).toEqual({
      status: 400,
      message: expect.stringMatching(/^alertmanager payload: groupKey: /),
    })
    const { json } = fixture('alertmanager-firing')
    expect(refusal(() => post({ ...json, alerts: [] }))?.message).toBe(
      'alertmanager payload: alerts: an alert group holds at least one alert',
    )
    const text = { authorization: `Bearer ${source.secret}`, 'content-type': 'text/plain' }
    expect(refusal(() => eventsOf(receive(source, Buffer.from('down!'), text)))).toEqual({
      status: 400,
      message: expect.stringMatching(/^alertmanager: the body is not JSON/),
    })
  })
})
