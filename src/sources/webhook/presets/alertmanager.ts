// The alertmanager preset: Prometheus Alertmanager's webhook_config notifications (payload version 4),
// one alert group per POST. Alertmanager sends the secret as `http_config.authorization.credentials`.
import { ALERT_GROUP_MAX_BYTES, groupEvents, groupSchema } from './alert-group.js'
import { type Preset, payload } from './preset.js'

export const alertmanager: Preset = {
  maxBodyBytes: ALERT_GROUP_MAX_BYTES,
  parse: ({ source, body }) => ({ events: groupEvents(source, payload(body, groupSchema, 'alertmanager')) }),
}
