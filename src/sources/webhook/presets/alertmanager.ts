// The alertmanager preset: Prometheus Alertmanager's webhook_config notifications (payload version 4),
// one alert group per POST. Alertmanager sends the secret as `http_config.authorization.credentials`.
import { groupEvents, groupSchema } from './alert-group.js'
import { type Preset, payload } from './preset.js'

export const alertmanager: Preset = {
  parse: ({ source, body }) => ({ events: groupEvents(source, payload(body, groupSchema, 'alertmanager')) }),
}
