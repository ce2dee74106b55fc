// Rung 2 of the delivery ladder: an event written into a driven session as a user message, in the
// same `<channel …>` form Claude Code gives channel notifications, so Claude reads both alike.
import { eventMeta, type StoredEvent } from '../core/event.js'

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')

export function channelTag(event: StoredEvent, source = 'switchboard'): string {
  const attrs = Object.entries({ source, ...eventMeta(event) })
    .map(([k, v]) => `${k}="${attribute(v)}"`)
    .join(' ')
  return `<channel ${attrs}>\n${event.content}\n</channel>`
}
