// Files a reply attaches, from the side of a prompt-injected session trying to send secrets out: through
// a hard link, a symbolic link, a file swapped for a link after it was accepted, a key in ~/.ssh. Each
// platform's real client against its fake; an MCP client of `switchboard channel` plays Claude Code,
// started in the session's folder as Claude Code starts it.
import type { ChildProcess } from 'node:child_process'
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_PLATFORMS } from '../../src/core/bridges.js'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, pair, person, startBridgedHub, stopBridgedHub } from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { type TestHome, waitFor } from '../helpers/home.js'

describe.each(BRIDGE_PLATFORMS)('%s: files a reply attaches', (platform) => {
  let fake: FakePlatform
  let home: TestHome
  let hub: ChildProcess
  let userHome: string
  let project: string
  const opened: { close(): unknown }[] = []
  const ann = person(platform, 1, 'ann')

  beforeEach(async () => {
    userHome = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-user-')))
    project = realpathSync(mkdtempSync(join(tmpdir(), 'switchboard-project-')))
    ;({ fake, home, hub } = await startBridgedHub(platform, ({ home }) => {
      // The hub's user, whose ~/.ssh a session must never reach.
      home.extraEnv.HOME = userHome
      home.extraEnv.SWITCHBOARD_LOG_FILE = join(home.dir, 'hub.log')
    }))
  })

  afterEach(async () => {
    await stopBridgedHub({ fake, home, hub }, opened)
    rmSync(userHome, { recursive: true, force: true })
    rmSync(project, { recursive: true, force: true })
  })

  it('sends a file from the session’s folder, and refuses links, a swapped file and ~/.ssh with the reason', async () => {
    const claude = await ChannelClient.start(home, ['--name', 'work'], {}, project)
    opened.push(claude)
    const chat = await pair(home, fake, ann)
    await fake.dm(ann, 'send me the report')
    const [event] = await claude.waitForEvents(1)
    const chat_id = event?.meta?.chat_id
    const token = join(home.dir, 'admin-token')
    const secretSize = readFileSync(token).length
    const reply = (text: string, files: string[]) => claude.callTool('reply', { chat_id, text, files })
    const said = (result: Awaited<ReturnType<typeof reply>>) => JSON.stringify(result.content)

    const report = join(project, 'report.txt')
    writeFileSync(report, 'the quarterly report, all of it')
    const sent = await reply('here it is', [report])
    expect(said(sent)).toContain('sent')
    const withFile = await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.files.some((f) => f.name === 'report.txt')),
      'the report on the platform',
    )
    expect(withFile.files[0]?.size).toBe('the quarterly report, all of it'.length)

    mkdirSync(join(userHome, '.ssh'))
    writeFileSync(join(userHome, '.ssh', 'id_ed25519'), 'PRIVATE KEY', { mode: 0o600 })
    linkSync(token, join(project, 'notes.txt'))
    symlinkSync(token, join(project, 'readme.txt'))
    const attempts: [string, RegExp][] = [
      [join(project, 'notes.txt'), /notes\.txt .*hard link/],
      [join(project, 'readme.txt'), /readme\.txt .*symbolic link/],
      [join(userHome, '.ssh', 'id_ed25519'), /id_ed25519 .*outside the folders files are sent from/],
      [token, /admin-token .*Switchboard's home/],
    ]
    for (const [file, reason] of attempts) {
      const refused = await reply('the secret', [file])
      expect(refused.isError, file).toBe(true)
      expect(said(refused)).toMatch(reason)
    }

    // Accepted while the platform is down, then swapped for a link before it is sent.
    const late = join(project, 'late.txt')
    writeFileSync(late, 'a harmless late file')
    fake.setDown(true)
    expect(said(await reply('later', [late]))).toContain('queued')
    renameSync(late, `${late}.old`)
    symlinkSync(token, late)
    fake.setDown(false)
    // Replies go out in order: once this one is there, the swapped one had its turn.
    await reply('after the outage', [])
    await fake.waitFor(
      () => botMessages(fake, chat).find((m) => m.text.includes('after the outage')),
      'the reply after the outage',
      40_000,
    )
    const files = botMessages(fake, chat).flatMap((m) => m.files)
    expect(files.map((f) => f.name)).toEqual(['report.txt'])
    expect(files.some((f) => f.size === secretSize)).toBe(false)
    expect(botMessages(fake, chat).some((m) => m.text.includes('the secret'))).toBe(false)
    await waitFor(
      () => readFileSync(join(home.dir, 'hub.log'), 'utf8').includes('late.txt is a symbolic link'),
      10_000,
      'the hub to log why the swapped file was not sent',
    )
  })
})
