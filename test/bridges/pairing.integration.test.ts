// Pairing where strangers write first: a flood of them on one platform fills only that platform's
// codes. Someone on another platform, or over HTTP, still pairs; and the operator lets their own
// account in by its platform id, whatever is pending. Telegram and Discord bridged by one hub.
import type { ChildProcess } from 'node:child_process'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, bridgeAddArgs, FAKES, pair, person, spawnHub } from '../helpers/bridge-world.js'
import { ChannelClient } from '../helpers/channel-client.js'
import { TestHome } from '../helpers/home.js'

let telegram: FakePlatform
let discord: FakePlatform
let home: TestHome
let hub: ChildProcess
const opened: { close(): unknown }[] = []

beforeEach(async () => {
  telegram = await FAKES.telegram()
  discord = await FAKES.discord()
  home = await TestHome.create()
  await home.cli(...bridgeAddArgs(telegram))
  await home.cli(...bridgeAddArgs(discord))
  hub = spawnHub(home)
  await home.waitForHub()
  await telegram.waitFor(() => telegram.receivers() > 0, 'the Telegram bridge to connect', 20_000)
  await discord.waitFor(() => discord.receivers() > 0, 'the Discord bridge to connect', 20_000)
})

afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close()
  hub.kill('SIGTERM')
  await home.cleanup()
  await telegram.close()
  await discord.close()
})

it('lets people pair elsewhere, and the operator in, while strangers hold every Telegram code', async () => {
  const claude = await ChannelClient.inFolder(home, 'work')
  opened.push(claude)
  const strangers = [1, 2, 3, 4, 5].map((n) => person('telegram', 100 + n, `stranger${n}`))
  for (const stranger of strangers) {
    await telegram.dm(stranger, 'let me in')
    await telegram.waitFor(() => botMessages(telegram, telegram.dmChatOf(stranger.id))[0], 'an answer')
  }
  const codes = strangers.flatMap(
    (s) => /switchboard pair ([a-z0-9]{6})/.exec(botMessages(telegram, s.id)[0]?.text ?? '')?.[1] ?? [],
  )
  expect(codes).toHaveLength(3) // Telegram's codes are all taken
  const waiting = await home.cli('pair', '--list')
  for (const code of codes) expect(waiting).toContain(code)

  // Someone on Discord still gets a code, and the operator's approval lets them in.
  const dora = person('discord', 1, 'dora')
  await pair(home, discord, dora)
  await discord.dm(dora, 'from discord')
  await claude.waitForEvents(1)

  // A browser or phone over HTTP as well.
  const asked = await fetch(`${home.url}/pair`, { method: 'POST' })
  expect(asked.status).toBe(201)
  const { code, token } = (await asked.json()) as { code: string; token: string }
  await home.cli('pair', code, '--name', 'phone')
  const said = await fetch(`${home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body: 'from the phone',
  })
  expect(said.status).toBe(202)

  // The operator's own Telegram account: told how to get in, and let in by its id.
  const me = person('telegram', 9, 'me')
  await telegram.dm(me, 'it is me')
  const told = await telegram.waitFor(() => botMessages(telegram, me.id)[0], 'an answer')
  expect(told.text).toContain(`switchboard access allow telegram:${me.id}`)
  await home.cli('access', 'allow', `telegram:${me.id}`, '--operator')
  await telegram.waitFor(
    () => botMessages(telegram, me.id).find((m) => m.text.startsWith('Paired')),
    '"Paired"',
    15_000,
  )
  await telegram.dm(me, 'now from telegram')
  const events = await claude.waitForEvents(3)
  expect(events.map((e) => e.content)).toEqual(['from discord', 'from the phone', 'now from telegram'])
  expect(await home.cli('access', 'list')).toContain(`telegram:${me.id}\tallowed\toperator`)
})

it('refuses an id that is not one of the platform’s, in one line', async () => {
  const { code, stderr } = await home.cliFails('access', 'allow', 'telegram:@me')
  expect(code).not.toBe(0)
  expect(stderr.trim().split('\n')).toHaveLength(1)
  expect(stderr).toMatch(/telegram user id/)
})
