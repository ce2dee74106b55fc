// What a bridge remembers outlives the hub: a chat's `/to` choice, the attachments Claude may
// download, and how often a stranger was answered are in the store, so a restarted hub (or the hub
// that takes the bridge over) carries on from them. Each platform, through its real client library.
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import {
  botMessages,
  pair,
  person,
  restartHub,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import type { TestHome } from '../helpers/home.js'

describe.each(BRIDGE_PLATFORMS)('%s bridge across a hub restart', (platform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  const opened: { close(): unknown }[] = []
  const ann = person(platform, 1, 'ann')
  const stranger = person(platform, 3, 'mallory')

  beforeEach(async () => {
    ;({ fake, home, hub } = await startBridgedHub(platform))
  })

  afterEach(async () => {
    await stopBridgedHub({ fake, home, hub }, opened)
  })

  async function channel(name: string): Promise<ChannelClient> {
    const client = await ChannelClient.start(home, ['--name', name])
    opened.push(client)
    return client
  }

  it('keeps a chat’s /to choice', async () => {
    const work = await channel('work')
    const other = await channel('other')
    const chat = await pair(home, fake, ann)
    await fake.dm(ann, '/to other')
    await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.includes('now go to other')), '/to')
    hub = await restartHub(home, hub)
    await fake.dm(ann, 'only for other')
    await other.waitForEvents(1, 20_000)
    expect(other.events.map((e) => e.content)).toEqual(['only for other'])
    // Back to every session: `work` gets the next message, and, had it been given the first, that first.
    await fake.dm(ann, '/to')
    await fake.waitFor(() => botMessages(fake, chat).find((m) => m.text.includes('every session')), '/to')
    await fake.dm(ann, 'for everyone')
    await work.waitForEvents(1, 20_000)
    expect(work.events.map((e) => e.content)).toEqual(['for everyone'])
  })

  it('lets Claude download an attachment announced before the restart', async () => {
    const claude = await channel('work')
    await pair(home, fake, ann)
    const log = { name: 'build.log', mime: 'text/plain', content: Buffer.from('error: it broke\n') }
    await fake.dm(ann, 'the log', { document: log })
    const [event] = await claude.waitForEvents(1)
    hub = await restartHub(home, hub)
    const result = await claude.callTool('download_attachment', {
      chat_id: event?.meta?.chat_id,
      file_id: event?.meta?.attachment_file_id,
    })
    expect(JSON.stringify(result.content)).not.toContain('no attachment')
    expect(result.isError).toBeFalsy()
    const path = (result.content as { text: string }[])[0]?.text as string
    expect(readFileSync(path)).toEqual(log.content)
  })

  it('keeps a stranger’s pairing replies capped', async () => {
    const chat = await pair(home, fake, ann)
    await fake.dm(stranger, 'let me in')
    const strangerChat = fake.dmChatOf(stranger.id)
    await fake.waitFor(() => botMessages(fake, strangerChat)[0], 'a pairing code')
    await fake.dm(stranger, 'please')
    await fake.waitFor(() => botMessages(fake, strangerChat)[1], 'the reminder')
    hub = await restartHub(home, hub)
    await fake.dm(stranger, 'hello??')
    await fake.dm(stranger, 'anyone???')
    // The bridge takes messages one at a time, in order: once ann's command is answered, the
    // stranger's messages before it were taken too.
    const before = botMessages(fake, chat).length
    await fake.dm(ann, '/help')
    await fake.waitFor(() => botMessages(fake, chat).length > before, 'the answer to /help', 20_000)
    expect(botMessages(fake, strangerChat)).toHaveLength(2)
  })
})
