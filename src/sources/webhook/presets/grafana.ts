// The grafana preset: Grafana Alerting's webhook contact point, an Alertmanager-like group with
// Grafana's own links per alert (silence, dashboard, panel) and its title, state and message.
import * as z from 'zod'
import { ALERT_GROUP_MAX_BYTES, alertSchema, groupEvents, groupSchema } from './alert-group.js'
import { type Preset, payload } from './preset.js'

const grafanaAlert = alertSchema.extend({
  silenceURL: z.string().optional(),
  dashboardURL: z.string().optional(),
  panelURL: z.string().optional(),
  imageURL: z.string().optional(),
  valueString: z.string().optional(),
})

const grafanaGroup = groupSchema.extend({
  alerts: z.array(grafanaAlert).min(1, 'an alert group holds at least one alert'),
  orgId: z.number().optional(),
  title: z.string().optional(),
  state: z.string().optional(),
  message: z.string().optional(),
  /** Legacy alerting's link to the rule; unified alerting links each alert's rule as generatorURL. */
  ruleUrl: z.string().optional(),
})

export const grafana: Preset = {
  maxBodyBytes: ALERT_GROUP_MAX_BYTES,
  parse({ source, body }) {
    const group = payload(body, grafanaGroup, 'grafana')
    return {
      events: groupEvents(source, group, ([first]) => ({
        // Grafana sends "" for a link it has not got.
        silence_url: first?.silenceURL || undefined,
        dashboard_url: first?.dashboardURL || undefined,
        panel_url: first?.panelURL || undefined,
        rule_url: group.ruleUrl || undefined,
        value: first?.valueString || undefined,
        org_id: group.orgId,
      })),
    }
  },
}
