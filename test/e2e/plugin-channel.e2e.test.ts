// Channels in -p mode through the plugin (PROTOCOLS.md §2 recipe): an event pushed into the hub
// starts a turn by itself; the model sees the <channel> block and answers through the reply tool.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { textOf, toolResults } from '../fakes/anthropic.js'
import { ROOT } from '../helpers/claude.js'
import { chatAs, e2eWorld, printSession, startedSession } from '../helpers/e2e.js'
import {
  channelBlock,
  PLUGIN_CHANNEL,
  pathWithoutSwitchboard,
  REPLY_TOOL,
  webhookShown,
} from '../helpers/plugin.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

it('starts a turn on a webhook and answers a chat through the reply tool', async () => {
  const secret = await world.home.addSource('ci')
  const token = await world.home.addSender('bob')
  const session = await startedSession(world, [...PLUGIN_CHANNEL, '--allowedTools', REPLY_TOOL])

  // A webhook: no one types anything, yet a turn starts.
  world.fake.respond(() => ({ text: 'noted the build failure' }))
  const hook = await fetch(`${world.home.url}/hooks/ci?job=unit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
    body: 'build 77 failed',
  })
  expect(hook.status).toBe(202)
  const { id } = (await hook.json()) as { id: string }
  await session.waitForTurns(1)
  const synthetic = session.lines.find((l) => l.type === 'user' && l.isSynthetic === true)
  expect(synthetic).toMatchObject({ origin: { kind: 'channel' } })
  const webhookBlock = world.fake.requests.map((r) => channelBlock(r, 'build 77 failed')).find(Boolean)
  expect(webhookBlock).toContain('source="plugin:switchboard:switchboard"')
  expect(webhookBlock).toContain(`event_id="${id}"`)
  expect(webhookBlock).toContain('origin="ci"')
  expect(webhookBlock).toContain('job="unit"')

  // A chat message: the model answers it with the reply tool, and the sender sees the answer.
  const { replies, posted } = await chatAs(world, token, 'are you there?')
  const { chat_id } = (await posted.json()) as { chat_id: string }
  world.fake.respond((request) => {
    if (toolResults(request).length) return { text: 'replied' }
    const block = channelBlock(request, 'are you there?')
    return block ? { tool: REPLY_TOOL, input: { chat_id, text: 'yes, here' } } : { text: 'nothing for me' }
  })
  expect((await replies.waitFor('reply', 30_000)).data).toMatchObject({ chat_id, text: 'yes, here' })
  const chatBlock = world.fake.requests.map((r) => channelBlock(r, 'are you there?')).find(Boolean)
  expect(chatBlock).toContain('sender="bob"')
  expect(chatBlock).toContain(`chat_id="${chat_id}"`)
  await session.waitForTurns(2)
  const sent = world.fake.requests.flatMap(toolResults).find((r) => textOf(r.content) === 'sent')
  expect(sent).toBeDefined()
})

it('hands the model an event sent after the hub was killed exactly once, once the channel is back', async () => {
  const secret = await world.home.addSource('ci')
  const session = await startedSession(world, PLUGIN_CHANNEL)

  const hook = (body: string) =>
    fetch(`${world.home.url}/hooks/ci`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body,
    })
  expect((await hook('first event')).status).toBe(202)
  await session.waitForTurns(1)

  await world.home.stopHub('SIGKILL')
  // The channel notices, and starts a hub again on the same home and port.
  await world.home.waitForHub(15_000)
  expect((await hook('second event')).status).toBe(202)
  await session.waitForTurns(2)
  await new Promise((r) => setTimeout(r, 500))

  // The last request carries the whole conversation: each event must be in it exactly once.
  const conversation = textOf(world.fake.requests.at(-1)?.messages)
  const times = (marker: string) =>
    conversation.match(new RegExp(`<channel [^>]*>\\s*${marker}\\s*</channel>`, 'g'))?.length
  expect(times('first event')).toBe(1)
  expect(times('second event')).toBe(1)
  const turnsStartedByEvents = session.lines.filter((l) => l.type === 'user' && l.isSynthetic === true)
  expect(turnsStartedByEvents).toHaveLength(2)
})

it('starts the channel from the checkout when no switchboard is on PATH', async () => {
  const PATH = pathWithoutSwitchboard(join(world.claude.home, 'bare-bin'))
  const shown = await webhookShown(world, PLUGIN_CHANNEL, { PATH }, 'queue depth 9000')
  expect(shown).toMatch(
    /<channel source="plugin:switchboard:switchboard"[^>]*origin="alerts"[^>]*>\s*queue depth 9000/,
  )
})

it('starts the switchboard on PATH when there is one', async () => {
  const bare = join(world.claude.home, 'bare-bin')
  const shims = join(world.claude.home, 'shim-bin')
  const PATH = `${shims}:${pathWithoutSwitchboard(bare)}`
  const ran = join(world.claude.home, 'shim-ran')
  mkdirSync(shims)
  writeFileSync(
    join(shims, 'switchboard'),
    `#!/bin/sh\necho "$@" >> "${ran}"\nexec node "${join(ROOT, 'dist/cli/main.js')}" "$@"\n`,
    { mode: 0o755 },
  )
  const shown = await webhookShown(world, PLUGIN_CHANNEL, { PATH }, 'queue depth 9001')
  expect(shown).toMatch(/<channel source="plugin:switchboard:switchboard"[^>]*>\s*queue depth 9001/)
  expect(readFileSync(ran, 'utf8')).toBe('channel\n')
})

it('takes events into a session whose channel came up before its hub did', async () => {
  // The hub is down (stopped on purpose, so the channel waits instead of starting one) when Claude
  // Code starts the channel, and comes up only after the session's first turn: the channel must have
  // answered Claude Code at once, or the session never takes a channel notification.
  await world.home.cli('stop')
  const session = printSession(world, PLUGIN_CHANNEL)
  await session.waitForMcpServer()
  world.fake.respond(() => ({ text: 'ready' }))
  await session.sendUntilChannelWired('get ready')
  await world.home.cli('start')
  await world.home.waitForHub()
  const secret = await world.home.addSource('ci')
  world.fake.respond(() => ({ text: 'noted' }))
  const hook = await fetch(`${world.home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'late hub, event 1',
  })
  expect(hook.status).toBe(202)
  await session.waitForTurns(1)
  expect(world.fake.requests.map((r) => channelBlock(r, 'late hub, event 1')).find(Boolean)).toBeDefined()
})
