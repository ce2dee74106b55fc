// Voice notes from each platform through its real client library (grammy, discord.js, Bolt) against
// its fake and a fake speech-to-text server (OpenAI's POST /v1/audio/transcriptions): Telegram's voice
// note, Discord's voice message, Slack's audio clip. With the service configured the sender is shown
// the transcript with Send, Edit and Cancel, and only Send passes it to the session; without one a
// voice note is a file like any other and the sender is told so. One code path for the three.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS, type BridgePlatform } from '../../src/core/bridges.js'
import type { FakeMessage, FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import { FakeTranscription } from '../fakes/transcription.js'
import {
  type BridgedHub,
  botMessages,
  editOf,
  pair,
  person,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'

/** What each platform's app records: Ogg Opus on Telegram and Discord, WebM on Slack. */
const CLIP: Record<BridgePlatform, { name: string; mime: string; magic: string }> = {
  telegram: { name: 'note.ogg', mime: 'audio/ogg', magic: 'OggS' },
  discord: { name: 'voice-message.ogg', mime: 'audio/ogg', magic: 'OggS' },
  slack: { name: 'audio_message.webm', mime: 'audio/webm', magic: 'webm' },
}

describe.each(BRIDGE_PLATFORMS)('a voice note on %s', (platform) => {
  let world: BridgedHub
  let fake: FakePlatform
  let speech: FakeTranscription
  const opened: { close(): unknown }[] = []
  let met = 0
  let ann: FakeUser
  let claude: ChannelClient
  let chat: string

  beforeAll(async () => {
    speech = await new FakeTranscription().start()
    world = await startBridgedHub(platform)
    fake = world.fake
  })
  afterAll(async () => {
    await stopBridgedHub(world, opened)
    await speech.close()
  })
  beforeEach(async () => {
    ann = person(platform, ++met, 'ann')
    claude = await ChannelClient.inFolder(world.home, 'work')
    opened.push(claude)
    chat = await pair(world.home, fake, ann)
  })
  afterEach(async () => {
    for (const thing of opened.splice(0)) await thing.close()
    rmSync(join(world.home.dir, 'config.json'), { force: true })
  })

  const note = (words: string) => ({
    name: CLIP[platform].name,
    mime: CLIP[platform].mime,
    content: Buffer.from(`${CLIP[platform].magic} ${words}`),
  })
  const type = CLIP[platform].mime.replace('/', '\\/')

  function useSpeech(key?: string): void {
    const file = join(world.home.dir, 'config.json')
    writeFileSync(
      file,
      JSON.stringify({ transcriptionUrl: speech.url, ...(key ? { transcriptionKey: key } : {}) }),
    )
    chmodSync(file, 0o600)
  }

  async function transcriptOffer(words: string): Promise<FakeMessage> {
    return fake.waitFor(
      () =>
        botMessages(fake, chat).find(
          (m) => m.text.includes('Your voice note says') && m.text.includes(words),
        ),
      `the transcript “${words}”`,
    )
  }

  const press = (message: FakeMessage, label: string) =>
    fake.press(
      ann,
      chat,
      message.messageId,
      message.buttons.flat().find((b) => b.text === label)?.data as string,
    )

  it('shows the transcript with Send, Edit and Cancel, and Send alone passes it, with the note, to the session', async () => {
    useSpeech('sk-speech-key-0123456789')
    speech.hears('restart the staging deploy')
    await fake.dm(ann, '', { voice: note('restart') })
    const offer = await transcriptOffer('restart the staging deploy')
    expect(offer.buttons.flat().map((b) => b.text)).toEqual(['Send', 'Edit', 'Cancel'])
    expect(speech.requests.at(-1)).toMatchObject({
      model: 'whisper-1',
      authorization: 'Bearer sk-speech-key-0123456789',
    })
    expect(claude.events).toEqual([])

    // Pressed twice at once (a double tap), it sends once; the second press is told so.
    await Promise.all([press(offer, 'Send'), press(offer, 'Send')])
    const [event] = await claude.waitForEvents(1)
    expect(event?.content).toBe('restart the staging deploy')
    const [, path] = new RegExp(`^(.+) \\(${type}, \\d+ bytes\\)$`).exec(event?.meta?.files ?? '') ?? []
    expect(readFileSync(path as string).toString()).toBe(`${CLIP[platform].magic} restart`)
    const marked = await fake.waitFor(
      () =>
        fake
          .sent()
          .find((m) => m.messageId === offer.messageId && m.text.startsWith('🎙 Sent to the session')),
      'the transcript marked sent',
    )
    expect(marked.buttons.flat()).toEqual([])
    await fake.waitFor(
      () => fake.pressAnswers.some((a) => a.notice === 'This transcript was answered already'),
      'the second press answered',
    )
    expect(claude.events).toHaveLength(1)
  })

  it('sends nothing on Cancel, and on Edit sends what the sender writes instead', async () => {
    useSpeech()
    speech.hears('delete the database', 'deploy to prodution')
    await fake.dm(ann, '', { voice: note('one') })
    const cancelled = await transcriptOffer('delete the database')
    await press(cancelled, 'Cancel')
    await editOf(fake, chat, cancelled.messageId, 'Cancelled: nothing was sent', 'the transcript cancelled')

    await fake.dm(ann, '', { voice: note('two') })
    const edited = await transcriptOffer('deploy to prodution')
    const stranger = person(platform, ++met, 'mallory')
    await fake.press(stranger, chat, edited.messageId, edited.buttons.flat()[0]?.data as string)
    await fake.waitFor(
      () => fake.pressAnswers.some((a) => a.notice === 'Only who sent the voice note answers its transcript'),
      'a stranger’s press refused',
    )
    await press(edited, 'Edit')
    await editOf(
      fake,
      chat,
      edited.messageId,
      'Not sent. Write what the session should read',
      'the transcript given back to edit',
    )
    await fake.dm(ann, 'deploy to production')
    const [event] = await claude.waitForEvents(1)
    expect(event?.content).toBe('deploy to production')
    expect(claude.events.map((e) => e.content)).toEqual(['deploy to production'])
  })

  it('passes a voice note on as a file, telling the sender, when no speech-to-text service is configured', async () => {
    const before = speech.requests.length
    await fake.dm(ann, '', { voice: note('hello') })
    const told = await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.text.includes('no speech-to-text service is configured')),
      'the sender told',
    )
    expect(told.text).toContain('transcriptionUrl')
    const [event] = await claude.waitForEvents(1)
    expect(event?.meta?.files).toMatch(new RegExp(` \\(${type}, \\d+ bytes\\)$`))
    expect(speech.requests.length).toBe(before)
  })

  it('passes an audio file someone attached on as a file, not as a voice note to transcribe', async () => {
    useSpeech()
    const before = speech.requests.length
    const song = { name: 'standup.mp3', mime: 'audio/mpeg', content: Buffer.from('ID3 the standup') }
    await fake.dm(ann, 'notes from the standup', { document: song })
    const [event] = await claude.waitForEvents(1)
    expect(event?.content).toBe('notes from the standup')
    expect(event?.meta?.files).toMatch(/standup\.mp3 \(audio\/mpeg, 15 bytes\)$/)
    expect(speech.requests.length).toBe(before)
    expect(botMessages(fake, chat).filter((m) => m.text.includes('voice note'))).toEqual([])
  })
})
