// Who started a turn of a session at a terminal, from the prompt Claude Code hands its UserPromptSubmit
// hook. Claude Code 2.1.330 says nothing of it in the hook's input (no `source`; the prompt's origin
// is its own business), but a turn a channel's notification started by itself comes as the tag
// Claude Code wrote around it, `<channel source="<server>" …>`, and nothing else (seen with the real
// CLI: test/e2e/turn-starters.e2e.test.ts). A channel's content cannot make a tag of its own (Claude
// Code escapes it), nor a webhook make its turn look typed: only the person at the terminal can type a
// prompt that opens with a tag, and then it is theirs to be told of as someone else's.
import type { StartedBy } from '../../core/outbox.js'
import type { Store } from '../../store/store.js'

/** Who started a turn: its kinds are the notice's (core/outbox.ts), which says it to operators. */
export type { StartedBy } from '../../core/outbox.js'

const OPENING = /^<channel\s([^>]*)>/
const ATTRIBUTE = /([A-Za-z_][A-Za-z0-9_]*)="([^"]*)"/g

/** The channel tag a prompt opens with: its server and the event it names; null when a person wrote it. */
export function channelOpening(prompt: string): { server: string; event: string | null } | null {
  const tag = OPENING.exec(prompt)?.[1]
  if (tag === undefined) return null
  const attributes = new Map([...tag.matchAll(ATTRIBUTE)].map(([, k = '', v = '']) => [k, attributeText(v)]))
  const server = attributes.get('source')
  return server ? { server, event: attributes.get('event_id') ?? null } : null
}

/** Who started the turn whose prompt this is: the event behind a channel's tag, as the hub stored it. */
export async function startedBy(
  prompt: string,
  store: Pick<Store, 'eventById' | 'getSource'>,
): Promise<StartedBy> {
  const opening = channelOpening(prompt)
  if (!opening) return { kind: 'person' }
  const event = opening.event ? await store.eventById(opening.event) : null
  if (!event) return { kind: 'channel', source: opening.server }
  if (event.sender) return { kind: 'message', source: event.source, sender: event.sender, event: event.id }
  if (await store.getSource(event.source)) return { kind: 'webhook', source: event.source, event: event.id }
  return { kind: 'event', source: event.source, event: event.id }
}

/** Who started it, as a notice says it ("the turn a webhook from ci started"); null for the person. */
export function starterText(by: StartedBy): string | null {
  switch (by.kind) {
    case 'person':
      return null
    case 'webhook':
      return `a webhook from ${by.source}`
    case 'message':
      return `a message from ${by.sender}`
    case 'event':
      return `an event from ${by.source}`
    case 'channel':
      return `a message through ${by.source}`
  }
}

function attributeText(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
