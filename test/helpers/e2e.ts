// What every end-to-end test needs: a fake Messages API, a Switchboard home, a Claude Code HOME,
// and the things to close afterwards, set up before each test and torn down after it.
import { afterEach, beforeEach } from 'vitest'
import { FakeAnthropic } from '../fakes/anthropic.js'
import { ClaudeHome, type ClaudeHomeOptions, PrintSession } from './claude.js'
import { TestHome } from './home.js'
import { SseReader } from './sse.js'

export interface World {
  fake: FakeAnthropic
  home: TestHome
  claude: ClaudeHome
  /** Closed in reverse order after the test. */
  closers: (() => unknown)[]
}

/**
 * A `-p` stream-json session with Switchboard's channel on this world's Switchboard home. Its first
 * turn starts the channel, and with it the hub; this resolves once that turn ended and the hub answers.
 */
export async function startedSession(
  world: World,
  args: string[],
  env: Record<string, string> = {},
): Promise<PrintSession> {
  const session = new PrintSession(args, {
    cwd: world.claude.cwd,
    env: world.claude.env(world.fake.url, {
      SWITCHBOARD_HOME: world.home.dir,
      SWITCHBOARD_PORT: String(world.home.port),
      ...env,
    }),
  })
  world.closers.push(() => session.close())
  world.fake.respond(() => ({ text: 'ready' }))
  session.send('get ready')
  await session.waitForResults(1)
  await world.home.waitForHub(10_000)
  return session
}

/** Opens a sender's stream of replies, then sends a chat message into the sessions as that sender. */
export async function chatAs(world: World, token: string, text: string) {
  const replies = await SseReader.open(world.home.url, token)
  world.closers.push(() => replies.close())
  const posted = await fetch(`${world.home.url}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: text,
  })
  return { replies, posted }
}

export function e2eWorld(options: ClaudeHomeOptions = {}): World {
  const world = { closers: [] } as unknown as World
  beforeEach(async () => {
    world.fake = await new FakeAnthropic().start()
    world.home = await TestHome.create()
    world.claude = new ClaudeHome(options)
  })
  afterEach(async () => {
    for (const close of world.closers.splice(0).reverse()) await close()
    await world.fake.close()
    await world.home.cleanup()
    world.claude.cleanup()
  })
  return world
}
