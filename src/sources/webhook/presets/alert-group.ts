// What Alertmanager and Grafana notifications share: one alert group per POST, whose firing alerts
// and resolved alerts each become one event: what fires (or resolved), how many, why, the runbook.
import { createHash } from 'node:crypto'
import * as z from 'zod'
import type { NewEvent } from '../../../core/event.js'
import type { Source } from '../../../store/store.js'
import { metaOf, sourceEvent } from './preset.js'

/**
 * Alertmanager and Grafana send every alert of a group in one POST unless told otherwise
 * (max_alerts, Max Alerts: 0 by default); a few thousand alerts with their labels fit in 4 MiB.
 */
export const ALERT_GROUP_MAX_BYTES = 4 * 1024 * 1024

const labels = z.record(z.string(), z.string())
const STATUSES = ['firing', 'resolved'] as const
type Status = (typeof STATUSES)[number]

export const alertSchema = z.object({
  status: z.enum(STATUSES),
  labels,
  annotations: labels.default({}),
  startsAt: z.string(),
  endsAt: z.string(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().optional(),
})
export type Alert = z.infer<typeof alertSchema>

/** Alertmanager's webhook payload (version 4); Grafana's extends it. */
export const groupSchema = z.object({
  version: z.string().optional(),
  groupKey: z.string(),
  status: z.enum(STATUSES),
  receiver: z.string(),
  alerts: z.array(alertSchema).min(1, 'an alert group holds at least one alert'),
  groupLabels: labels.default({}),
  commonLabels: labels.default({}),
  commonAnnotations: labels.default({}),
  externalURL: z.string().optional(),
  truncatedAlerts: z.number().optional(),
})
export type AlertGroup = z.infer<typeof groupSchema>

/** The pairs every record has, with the same value. */
function common(records: Record<string, string>[]): Record<string, string> {
  const [first, ...rest] = records
  return Object.fromEntries(
    Object.entries(first ?? {}).filter(([k, v]) => rest.every((r) => Object.hasOwn(r, k) && r[k] === v)),
  )
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * The labels that name the service alerts are about, the first one found winning: Prometheus'
 * habit, and Kubernetes' recommended label. What an alert group is about is `service`, as a
 * GitHub event's is `repository` (docs/design-notes.md).
 */
const SERVICE_LABELS = ['service', 'app', 'application', 'app.kubernetes.io/name'] as const

/** Times in time order, not text order: Grafana writes its own offset (+02:00), Alertmanager Z. */
const inTimeOrder = (times: string[]) =>
  [...times].sort((a, b) => (Date.parse(a) || 0) - (Date.parse(b) || 0))

/**
 * Alertmanager and Grafana send no delivery id, and a notification they retry is the same POST
 * again. The key names this state of the group: its key, the status, and each alert (fingerprint,
 * or its labels) with its start and end. A retried POST therefore is one event; so is a reminder
 * (repeat_interval) of a group that has not changed, which says nothing new. An alert that joins or
 * resolves, or fires again later (a new startsAt), makes a new event. Not the body's hash: one body
 * holds a firing and a resolved event, and Grafana's reminders carry fresh query values.
 */
function stateKey(groupKey: string, status: Status, alerts: Alert[]): string {
  const identity = alerts
    .map((a) => JSON.stringify([a.fingerprint ?? Object.entries(a.labels).sort(), a.startsAt, a.endsAt]))
    .sort()
  const hash = createHash('sha256').update(JSON.stringify([groupKey, status, identity]))
  return `alerts:${hash.digest('hex')}`
}

type Group<A extends Alert> = Omit<AlertGroup, 'alerts'> & { alerts: A[] }

/** The alerts of one status: what they are, how many, why (the first one's summary), the runbook. */
function statusEvent<A extends Alert>(
  source: Source,
  group: Group<A>,
  status: Status,
  alerts: [A, ...A[]],
  extra: Record<string, unknown>,
): NewEvent {
  const [first] = alerts
  const shared = common(alerts.map((a) => a.labels))
  const names = [...new Set(alerts.map((a) => a.labels.alertname).filter(Boolean))]
  const name = shared.alertname ?? (names.join(', ') || 'alert')
  // What all the alerts share, the first alert has too: its annotations speak for the group.
  const summary = first.annotations.summary ?? first.annotations.description
  const runbook = first.annotations.runbook_url
  const count = `${alerts.length} alert${alerts.length === 1 ? '' : 's'}`
  return sourceEvent(source, {
    content:
      `${status.toUpperCase()}: ${name} (${count})${summary ? ` — ${oneLine(summary)}` : ''}` +
      (runbook ? `\nrunbook: ${runbook}` : ''),
    meta: metaOf(
      {
        status,
        alertname: name,
        // From the labels all of them share: alerts about two services are about neither alone.
        service: SERVICE_LABELS.map((label) => shared[label]).find(Boolean),
        alerts: alerts.length,
        receiver: group.receiver,
        group_key: group.groupKey,
        runbook_url: runbook,
        external_url: group.externalURL,
        generator_url: first.generatorURL,
        starts_at: inTimeOrder(alerts.map((a) => a.startsAt))[0],
        ends_at: status === 'resolved' ? inTimeOrder(alerts.map((a) => a.endsAt)).at(-1) : undefined,
        truncated_alerts: group.truncatedAlerts || undefined,
      },
      extra,
      shared,
    ),
    idempotencyKey: stateKey(group.groupKey, status, alerts),
  })
}

/**
 * One event per status present, firing first. `extra` gives the attributes only one sender has
 * (Grafana's links), from the alerts of that status.
 */
export function groupEvents<A extends Alert>(
  source: Source,
  group: Group<A>,
  extra: (alerts: A[]) => Record<string, unknown> = () => ({}),
): NewEvent[] {
  const events: NewEvent[] = []
  for (const status of STATUSES) {
    const [first, ...rest] = group.alerts.filter((a) => a.status === status)
    if (first) events.push(statusEvent(source, group, status, [first, ...rest], extra([first, ...rest])))
  }
  return events
}
