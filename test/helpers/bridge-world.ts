// A hub with one chat bridge against a fake platform, brought up the way a user does it
// (`switchboard bridge add …`), and people on the platform paired with it (`switchboard pair`).
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { type BridgePlatform, readBridges } from '../../src/core/bridges.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import { CLI, TestHome, waitFor } from './home.js'

export const FAKES: Record<BridgePlatform, () => Promise<FakePlatform>> = {
  telegram: async () => (await import('../fakes/telegram.js')).startFakeTelegram(),
  discord: async () => (await import('../fakes/discord.js')).startFakeDiscord(),
  slack: async () => (await import('../fakes/slack.js')).startFakeSlack(),
}

export const LIMITS: Record<BridgePlatform, number> = { telegram: 4096, discord: 2000, slack: 4000 }

/** A person on each platform, with an id of the platform's shape. */
export function person(platform: BridgePlatform, n: number, name: string): FakeUser {
  if (platform === 'slack') return { id: `U0${n}ABCDEF`, name }
  return { id: String(platform === 'discord' ? 100_000_000_000_000_000n + BigInt(n) : 10_000 + n), name }
}

/** The flags `bridge add` takes for this fake: exactly what a user would type. */
export function bridgeAddArgs(fake: FakePlatform): string[] {
  const { token, appToken, apiUrl } = fake.credentials
  switch (fake.platform) {
    case 'telegram':
      return ['bridge', 'add', 'telegram', '--token', token, '--api-root', apiUrl as string]
    case 'discord':
      return ['bridge', 'add', 'discord', '--token', token, '--api', apiUrl as string]
    case 'slack':
      return [
        'bridge',
        'add',
        'slack',
        '--bot-token',
        token,
        '--app-token',
        appToken as string,
        '--api-url',
        apiUrl as string,
      ]
  }
}

export function spawnHub(home: TestHome): ChildProcess {
  return spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
}

export interface BridgedHub {
  fake: FakePlatform
  home: TestHome
  hub: ChildProcess
}

/**
 * A fake platform, a home with a bridge to it, and a hub running that bridge, once it has connected.
 * `prepare` runs after the bridge is added and before the hub starts (a group, the hub's environment).
 */
export async function startBridgedHub(
  platform: BridgePlatform,
  prepare?: (world: Omit<BridgedHub, 'hub'>) => Promise<unknown> | unknown,
): Promise<BridgedHub> {
  const fake = await FAKES[platform]()
  const home = await TestHome.create()
  await home.cli(...bridgeAddArgs(fake))
  await prepare?.({ fake, home })
  const hub = spawnHub(home)
  await home.waitForHub()
  await fake.waitFor(() => fake.receivers() > 0, 'the bridge to connect', 20_000)
  return { fake, home, hub }
}

/** Closes what a test opened, then the hub, the home and the fake. */
export async function stopBridgedHub(world: BridgedHub, opened: { close(): unknown }[] = []): Promise<void> {
  for (const thing of opened.splice(0)) await thing.close()
  world.hub.kill('SIGTERM')
  await world.home.cleanup()
  await world.fake.close()
}

/** The bot's messages in a chat, oldest first. */
export function botMessages(fake: FakePlatform, chatId: string) {
  return fake.sent().filter((m) => m.chatId === chatId && m.userId === fake.botId)
}

/**
 * The edit of the bot's message `messageId` in `chatId` once it says `text`: a chat is part of what
 * names a message (Telegram numbers them per chat), so another test's prompt cannot stand in for it.
 */
export function editOf(fake: FakePlatform, chatId: string, messageId: string, text: string, what: string) {
  return fake.waitFor(
    () => fake.sent().find((m) => m.chatId === chatId && m.messageId === messageId && m.text.includes(text)),
    what,
  )
}

/**
 * Pairs a person as a user does: they write to the bot, get a code, the operator approves it, and
 * the bot says so. Resolves with the DM chat id. The approval goes to the hub's route that
 * `switchboard pair` calls, without a CLI process for each person: the command itself has its tests
 * (the bridges' pairing test, pairing.integration.test.ts).
 */
export async function pair(
  home: TestHome,
  fake: FakePlatform,
  user: FakeUser,
  operator = false,
): Promise<string> {
  await fake.dm(user, 'hello?')
  const chat = fake.dmChatOf(user.id)
  const offer = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => /switchboard pair ([a-z0-9]+)/i.test(m.text)),
    'a pairing code',
  )
  const code = /switchboard pair ([a-z0-9]+)/i.exec(offer.text)?.[1] as string
  await home.api('approvePairing', { params: { code }, body: operator ? { operator } : {} })
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.startsWith('Paired')),
    '"Paired"',
    15_000,
  )
  return chat
}

/**
 * Stops the hub and starts another on the same home, as a person restarting it does, and resolves
 * once its bridges are connected again. A channel still open may start the hub first (autostart):
 * either way one hub runs after this.
 */
export async function restartHub(home: TestHome, hub: ChildProcess): Promise<ChildProcess> {
  if (hub.exitCode === null && hub.signalCode === null) {
    const exited = once(hub, 'exit')
    hub.kill('SIGTERM')
    await exited
  }
  await home.stopHub()
  const next = spawnHub(home)
  await home.waitForHub()
  const wanted = Object.keys(readBridges(home.dir))
  await waitFor(
    async () => {
      const { bridges } = await home.api('status')
      const state = (platform: string) => bridges.find((b) => b.platform === platform)?.state
      return wanted.length > 0 && wanted.every((platform) => state(platform) === 'connected')
    },
    20_000,
    'the bridges to connect again',
  )
  return next
}

/** A decision's status as the store has it, by its code. */
export async function decisionStatus(home: TestHome, code: string): Promise<string | undefined> {
  const store = openSqliteStore(join(home.dir, 'switchboard.db'))
  try {
    return (await store.listDecisions({})).find((d) => d.code === code)?.status
  } finally {
    await store.close()
  }
}
