// Every webhook preset by its name, and the one a source uses.
import type { Source, WebhookPreset } from '../../../store/access.js'
import { alertmanager } from './alertmanager.js'
import { generic } from './generic.js'
import { github } from './github.js'
import { grafana } from './grafana.js'
import type { Preset } from './preset.js'
import { sentry } from './sentry.js'

const PRESETS: Record<WebhookPreset, Preset> = { generic, github, alertmanager, grafana, sentry }

/** The source's preset (generic when it names none); a name no preset has is a fault, not a 400. */
export function presetOf(source: Pick<Source, 'name' | 'preset'>): Preset {
  const name = source.preset ?? 'generic'
  const preset = Object.hasOwn(PRESETS, name) ? PRESETS[name] : null
  if (!preset) throw new Error(`source "${source.name}" has an unknown preset "${name}"`)
  return preset
}
