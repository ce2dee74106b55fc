// Who started a turn, from the prompt Claude Code hands the UserPromptSubmit hook: the person typing,
// or a channel's notification, whose tag Claude Code wrote (with Switchboard's event behind it or not).
import { expect, it } from 'vitest'
import type { StoredEvent } from '../../core/event.js'
import { channelOpening, startedBy, starterText } from './turn-starter.js'

const PLUGIN = 'plugin:switchboard:switchboard'

it('reads the channel tag a prompt opens with, and nothing a person wrote', () => {
  expect(
    channelOpening(
      `<channel source="${PLUGIN}" job="unit" origin="ci" topic="ci" event_id="ev_1" subscriber="api">\nbuild 77 failed\n</channel>`,
    ),
  ).toEqual({ server: PLUGIN, event: 'ev_1' })
  expect(
    channelOpening(
      '<channel source="plugin:telegram:telegram" user="a &quot;b&quot;">\nhi\n</channel>\n<channel source="plugin:telegram:telegram">\nagain\n</channel>',
    ),
  ).toEqual({ server: 'plugin:telegram:telegram', event: null })
  expect(channelOpening('fix the flaky test')).toBeNull()
  expect(channelOpening('look at this: <channel source="x">\nhi\n</channel>')).toBeNull()
  expect(channelOpening('<channel>\nno server\n</channel>')).toBeNull()
})

const event = (over: Partial<StoredEvent>): StoredEvent => ({
  id: 'ev_1',
  seq: 1,
  topic: 'ci',
  source: 'ci',
  sender: null,
  chat_id: null,
  content: 'build 77 failed',
  meta: {},
  created_at: 0,
  ...over,
})

it('says who started the turn from the event behind the tag: a webhook, a message, another event, or only the channel', async () => {
  const events = new Map([
    ['ev_hook', event({ id: 'ev_hook', source: 'ci' })],
    ['ev_chat', event({ id: 'ev_chat', source: 'telegram', sender: 'telegram:olga' })],
    ['ev_tick', event({ id: 'ev_tick', source: 'schedule' })],
  ])
  const store = {
    eventById: async (id: string) => events.get(id) ?? null,
    getSource: async (name: string) => (name === 'ci' ? ({ name } as never) : null),
  }
  const tag = (id: string) => `<channel source="${PLUGIN}" event_id="${id}">\nx\n</channel>`
  expect(await startedBy('fix it', store)).toEqual({ kind: 'person' })
  expect(await startedBy(tag('ev_hook'), store)).toEqual({ kind: 'webhook', source: 'ci', event: 'ev_hook' })
  expect(await startedBy(tag('ev_chat'), store)).toEqual({
    kind: 'message',
    source: 'telegram',
    sender: 'telegram:olga',
    event: 'ev_chat',
  })
  expect(await startedBy(tag('ev_tick'), store)).toEqual({
    kind: 'event',
    source: 'schedule',
    event: 'ev_tick',
  })
  expect(await startedBy(tag('ev_gone'), store)).toEqual({ kind: 'channel', source: PLUGIN })

  expect(starterText({ kind: 'person' })).toBeNull()
  expect(starterText({ kind: 'webhook', source: 'ci', event: 'e' })).toBe('a webhook from ci')
  expect(starterText({ kind: 'message', source: 'http', sender: 'bob', event: 'e' })).toBe(
    'a message from bob',
  )
  expect(starterText({ kind: 'event', source: 'schedule', event: 'e' })).toBe('an event from schedule')
  expect(starterText({ kind: 'channel', source: PLUGIN })).toBe(`a message through ${PLUGIN}`)
})
