// The real Claude Code CLI with Switchboard's channel plugin, and a chat bridge in the hub it
// started: a DM on the (fake) platform starts a turn, and Claude's reply tool call arrives on the
// platform as the bot's message.
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import { textOf, toolResults } from '../fakes/anthropic.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { FakeTranscription } from '../fakes/transcription.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person } from '../helpers/bridge-world.js'
import { e2eWorld, startDrivingHub, startedSession } from '../helpers/e2e.js'
import { waitFor } from '../helpers/home.js'
import { channelBlock, PLUGIN_CHANNEL, REPLY_TOOL } from '../helpers/plugin.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

it.each(BRIDGE_PLATFORMS)(
  '%s: a DM becomes a turn, and Claude’s reply reaches the platform',
  async (platform) => {
    const fake: FakePlatform = await FAKES[platform]()
    world.closers.push(() => fake.close())
    await world.home.cli(...bridgeAddArgs(fake))
    const session = await startedSession(world, [...PLUGIN_CHANNEL, '--allowedTools', REPLY_TOOL])
    await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
    const ann = person(platform, 1, 'ann')
    const chat = await pair(world.home, fake, ann)

    world.fake.respond((request) => {
      if (toolResults(request).length) return { text: 'replied' }
      const block = channelBlock(request, 'is the build green?')
      const chatId = block ? /chat_id="([^"]+)"/.exec(block)?.[1] : undefined
      return chatId
        ? { tool: REPLY_TOOL, input: { chat_id: chatId, text: 'green since 10:02' } }
        : { text: 'nothing for me' }
    })
    await fake.dm(ann, 'is the build green?')
    const reply = await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.text.includes('green since 10:02')),
      'Claude’s reply on the platform',
      60_000,
    )
    expect(reply.text).toMatch(/^\[[^\]]+\] green since 10:02$/)
    const block = world.fake.requests.map((r) => channelBlock(r, 'is the build green?')).find(Boolean)
    expect(block).toContain(`origin="${platform}"`)
    expect(block).toContain('user="ann"')
    expect(block).toContain(`user_id="${ann.id}"`)
    await session.close()
  },
)

it('starts a driven session from the chat with /new, and its answer comes back to the chat', async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) =>
    textOf(request.messages).includes('summarise the repo') ? { text: 'it is a small repo' } : { text: 'ok' },
  )
  await fake.dm(olga, `/new ${world.claude.cwd} summarise the repo`)
  const started = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Started ses_')),
    '/new',
  )
  const session = /Started (ses_\w+)/.exec(started.text)?.[1] as string
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('it is a small repo')),
    'the session’s answer in the chat',
    60_000,
  )
  // Signed with what people call the session: its project and its first prompt, not its id.
  expect(answer.text).toBe(`[${basename(world.claude.cwd)} · summarise the repo] it is a small repo`)

  await fake.dm(olga, '/status')
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.startsWith(`[switchboard] ${session}`)),
    '/status',
  )
  await fake.dm(olga, `/stop ${session}`)
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes(`Stopped ${session}`)),
    '/stop',
  )
})

it('keeps bringing a /new session’s answers to the chat after the hub restarts', {
  timeout: 120_000,
}, async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  const hub = await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const said = textOf(request.messages)
    if (said.includes('and the tests?')) return { text: 'the tests pass' }
    return said.includes('summarise the repo') ? { text: 'it is a small repo' } : { text: 'ok' }
  })
  await fake.dm(olga, `/new ${world.claude.cwd} summarise the repo`)
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('it is a small repo')),
    'the session’s first answer',
    60_000,
  )
  const exited = once(hub, 'exit')
  hub.kill('SIGTERM')
  await exited
  await startDrivingHub(world)
  await waitFor(
    async () => JSON.parse(await world.home.cli('bridge', 'list', '--json'))[0]?.state === 'connected',
    20_000,
    'the bridge to connect again',
  )
  await fake.dm(olga, 'and the tests?')
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('the tests pass')),
    'the session’s answer after the restart',
    60_000,
  )
  expect(answer.text).toBe(`[${basename(world.claude.cwd)} · summarise the repo] the tests pass`)
})

it('puts a driven session’s tool call to the phone, and the Allow button lets it run', async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  await world.home.cli(...bridgeAddArgs(fake))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const results = toolResults(request)
    if (results.length) return { text: `ran it: ${textOf(results[0]?.content).trim()}` }
    return { tool: 'Bash', input: { command: 'touch bridged-ok && ls', description: 'Make a file' } }
  })
  await fake.dm(olga, `/new ${world.claude.cwd} run the check`)
  const prompt = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Permission: Bash')),
    'the prompt on the phone',
    60_000,
  )
  expect(prompt.text).toContain('touch bridged-ok')
  const allow = prompt.buttons.flat().find((b) => b.text === 'Allow')
  await fake.press(olga, chat, prompt.messageId, allow?.data as string)
  const answer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('ran it:')),
    'the session’s answer',
    60_000,
  )
  expect(answer.text).toContain('bridged-ok')
  expect(fake.sent().find((m) => m.messageId === prompt.messageId)?.text).toContain('Allowed by olga')
})

it('drives two sessions from two Telegram topics, each answering in its own', {
  timeout: 180_000,
}, async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  const group = '-1009876543210'
  fake.addGroup(group)
  await world.home.cli(...bridgeAddArgs(fake))
  await world.home.cli('bridge', 'group', 'add', 'telegram', group, '--topics')
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const said = textOf(request.messages)
    if (said.includes('and the alpha tests?')) return { text: 'alpha tests pass' }
    if (said.includes('and the beta tests?')) return { text: 'beta tests pass' }
    if (said.includes('summarise alpha')) return { text: 'alpha is small' }
    return said.includes('summarise beta') ? { text: 'beta is big' } : { text: 'ok' }
  })
  const inTopic = (thread: string) => fake.sent().filter((m) => m.thread === thread)
  const topicOf = (prompt: string) =>
    fake.waitFor(() => fake.threads().find((t) => t.title.endsWith(prompt)), `the topic of “${prompt}”`)

  // Commands in a group name the bot, as Telegram writes them.
  await fake.groupMessage(group, olga, `/new@switchboard_test_bot ${world.claude.cwd} summarise alpha`)
  const alpha = await topicOf('summarise alpha')
  await fake.groupMessage(group, olga, `/new@switchboard_test_bot ${world.claude.cwd} summarise beta`)
  const beta = await topicOf('summarise beta')
  expect(alpha.title).toMatch(/^\S+ · summarise alpha$/)
  await fake.waitFor(
    () => inTopic(alpha.thread).find((m) => m.text === 'alpha is small'),
    'alpha’s answer',
    60_000,
  )
  await fake.waitFor(
    () => inTopic(beta.thread).find((m) => m.text === 'beta is big'),
    'beta’s answer',
    60_000,
  )

  await fake.groupMessage(group, olga, 'and the alpha tests?', { thread: alpha.thread })
  await fake.groupMessage(group, olga, 'and the beta tests?', { thread: beta.thread })
  await fake.waitFor(
    () => inTopic(alpha.thread).find((m) => m.text === 'alpha tests pass'),
    'alpha’s second answer in its topic',
    60_000,
  )
  await fake.waitFor(
    () => inTopic(beta.thread).find((m) => m.text === 'beta tests pass'),
    'beta’s second answer in its topic',
    60_000,
  )
  expect(inTopic(alpha.thread).map((m) => m.text)).toEqual(['alpha is small', 'alpha tests pass'])
  expect(inTopic(beta.thread).map((m) => m.text)).toEqual(['beta is big', 'beta tests pass'])

  // Stopped, the session says so in its topic and the topic closes; a message there starts it again.
  const started = botMessages(fake, group).find((m) => !m.thread && m.text.includes('summarise alpha'))
  const session = /Started (ses_\w+)/.exec(started?.text ?? '')?.[1] as string
  expect(session).toBeDefined()
  await fake.groupMessage(group, olga, `/stop@switchboard_test_bot ${session}`)
  await fake.waitFor(
    () => fake.threads().find((t) => t.thread === alpha.thread && t.closed),
    'alpha’s topic closed',
    30_000,
  )
  expect(inTopic(alpha.thread).at(-1)?.text).toMatch(new RegExp(`^⏹ ${alpha.title} ended`))
  expect(fake.threads().find((t) => t.thread === beta.thread)?.closed).toBe(false)
  await fake.groupMessage(group, olga, 'and the alpha tests?', { thread: alpha.thread })
  await fake.waitFor(
    () => inTopic(alpha.thread).filter((m) => m.text === 'alpha tests pass').length === 2,
    'alpha’s answer after it started again',
    60_000,
  )
  expect(fake.threads().find((t) => t.thread === alpha.thread)?.closed).toBe(false)
})

it('brings a photo and a PDF written in a session’s topic into its context as paths it can read, and refuses a file over the limit', {
  timeout: 180_000,
}, async () => {
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  const group = '-1009876543211'
  fake.addGroup(group)
  await world.home.cli(...bridgeAddArgs(fake))
  await world.home.cli('bridge', 'group', 'add', 'telegram', group, '--topics')
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ chatFileLimitMb: 1 }))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const said = textOf(request.messages)
    if (said.includes('the report')) return { text: 'read the report' }
    if (said.includes('the graph')) return { text: 'saw the graph' }
    return said.includes('look at files') ? { text: 'send them' } : { text: 'ok' }
  })
  await fake.groupMessage(group, olga, `/new@switchboard_test_bot ${world.claude.cwd} look at files`)
  const topic = await fake.waitFor(
    () => fake.threads().find((t) => t.title.endsWith('look at files')),
    'the topic',
  )
  const inTopic = () => fake.sent().filter((m) => m.thread === topic.thread)
  await fake.waitFor(() => inTopic().find((m) => m.text === 'send them'), 'the first answer', 60_000)

  const photo = { name: 'graph.png', mime: 'image/png', content: Buffer.from('png bytes of the graph') }
  const pdf = { name: 'report.pdf', mime: 'application/pdf', content: Buffer.from('%PDF-1.4 the report') }
  await fake.groupMessage(group, olga, 'the graph', { thread: topic.thread, photo })
  await fake.waitFor(
    () => inTopic().find((m) => m.text === 'saw the graph'),
    'the answer to the graph',
    60_000,
  )
  await fake.groupMessage(group, olga, 'the report', { thread: topic.thread, document: pdf })
  await fake.waitFor(
    () => inTopic().find((m) => m.text === 'read the report'),
    'the answer to the report',
    60_000,
  )

  // What the model was given: each file's path in the session's folder of the inbox, its type and size.
  const filesIn = (words: string) => {
    const block = world.fake.requests.map((r) => channelBlock(r, words)).find(Boolean) ?? ''
    const [, path, type, size] = /files="(.+) \(([^,]+), (\d+) bytes\)"/.exec(block) ?? []
    return { path: path as string, type, size: Number(size) }
  }
  const started = fake.sent().find((m) => !m.thread && m.text.includes('look at files'))
  const session = /Started (ses_\w+)/.exec(started?.text ?? '')?.[1] as string
  // The session's folder of the inbox is named as the hub names the session as a subscriber.
  const inbox = join(world.home.dir, 'inbox', `session_${session}`)
  const graph = filesIn('the graph')
  expect(dirname(graph.path)).toBe(inbox)
  expect(graph).toMatchObject({ type: 'image/jpeg', size: photo.content.length })
  expect(readFileSync(graph.path)).toEqual(photo.content)
  const report = filesIn('the report')
  expect(dirname(report.path)).toBe(inbox)
  expect(report).toMatchObject({ type: 'application/pdf', size: pdf.content.length })
  expect(readFileSync(report.path)).toEqual(pdf.content)

  const big = { name: 'dump.pdf', mime: 'application/pdf', content: Buffer.alloc(2 * 1024 * 1024) }
  await fake.groupMessage(group, olga, '', { thread: topic.thread, document: big })
  const refused = await fake.waitFor(() => inTopic().find((m) => m.text.includes('dump.pdf')), 'the refusal')
  expect(refused.text).toBe(
    '“dump.pdf” is 2 MB, over the 1 MB limit for files (chatFileLimitMb): it was not passed on.',
  )
})

it('turns a voice note in a session’s topic into a transcript its sender confirms, which then reaches the model', {
  timeout: 180_000,
}, async () => {
  const speech = await new FakeTranscription().start()
  world.closers.push(() => speech.close())
  speech.hears('run the migration on staging')
  const fake = await FAKES.telegram()
  world.closers.push(() => fake.close())
  const group = '-1009876543212'
  fake.addGroup(group)
  await world.home.cli(...bridgeAddArgs(fake))
  await world.home.cli('bridge', 'group', 'add', 'telegram', group, '--topics')
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ transcriptionUrl: speech.url }))
  await startDrivingHub(world)
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  const olga = person('telegram', 2, 'olga')
  await pair(world.home, fake, olga, true)

  world.fake.respond((request) => {
    const said = textOf(request.messages)
    if (said.includes('run the migration on staging')) return { text: 'migration started' }
    return said.includes('listen to me') ? { text: 'listening' } : { text: 'ok' }
  })
  await fake.groupMessage(group, olga, `/new@switchboard_test_bot ${world.claude.cwd} listen to me`)
  const topic = await fake.waitFor(
    () => fake.threads().find((t) => t.title.endsWith('listen to me')),
    'the topic',
  )
  const inTopic = () => fake.sent().filter((m) => m.thread === topic.thread)
  await fake.waitFor(() => inTopic().find((m) => m.text === 'listening'), 'the first answer', 60_000)

  const voice = { name: 'note.ogg', mime: 'audio/ogg', content: Buffer.from('OggS a voice note') }
  await fake.groupMessage(group, olga, '', { thread: topic.thread, voice })
  const offer = await fake.waitFor(
    () => inTopic().find((m) => m.text.includes('run the migration on staging') && m.buttons.length),
    'the transcript with its buttons',
  )
  expect(offer.buttons.flat().map((b) => b.text)).toEqual(['Send', 'Edit', 'Cancel'])
  expect(world.fake.requests.some((r) => textOf(r.messages).includes('run the migration'))).toBe(false)
  const send = offer.buttons.flat().find((b) => b.text === 'Send')
  await fake.press(olga, group, offer.messageId, send?.data as string)
  await fake.waitFor(
    () => inTopic().find((m) => m.text === 'migration started'),
    'the answer to the note',
    60_000,
  )
  const block = world.fake.requests.map((r) => channelBlock(r, 'run the migration on staging')).find(Boolean)
  expect(block).toMatch(/files="[^"]+\.ogg \(audio\/ogg, \d+ bytes\)"/)
})
