// What the files of a bridge's tests (bridge-messages, bridge-prompts, bridge-files) share inside their
// `describe.each(BRIDGE_PLATFORMS)`: a hub with the bridge, either one for the tests that leave it as
// they found it or one per test, new people for each test, and the channels a test opened closed
// after it. They are three files so that the test workers share them.
import type { ChildProcess } from 'node:child_process'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { BridgePlatform } from '../../src/core/bridges.js'
import type { FakePlatform, FakeUser } from '../fakes/chat-platform.js'
import { person, startBridgedHub, stopBridgedHub } from './bridge-world.js'
import { ChannelClient } from './channel-client.js'
import { type TestHome, waitFor } from './home.js'

export class BridgeTests {
  fake!: FakePlatform
  home!: TestHome
  hub!: ChildProcess
  /** What the running test opened, closed after it. */
  readonly opened: { close(): unknown }[] = []
  // New people for each test: the tests on a shared hub must not meet someone paired by another.
  private met = 0
  ann!: FakeUser
  olga!: FakeUser
  stranger!: FakeUser

  constructor(readonly platform: BridgePlatform) {
    beforeEach(() => {
      this.ann = person(platform, ++this.met, 'ann')
      this.olga = person(platform, ++this.met, 'olga')
      this.stranger = person(platform, ++this.met, 'mallory')
    })
  }

  /** An MCP client of `switchboard channel` in the folder "work", closed after the test. */
  async channel(): Promise<ChannelClient> {
    const client = await ChannelClient.inFolder(this.home, 'work')
    this.opened.push(client)
    return client
  }

  /**
   * In the describe it is called in, one hub for the tests that leave it as they found it: each has
   * its own people, prompts and channels, and ends with its prompts closed, so none sees another's
   * (and the order does not matter).
   */
  shareHub(): void {
    beforeAll(async () => {
      ;({ fake: this.fake, home: this.home, hub: this.hub } = await startBridgedHub(this.platform))
    })
    afterEach(async () => {
      for (const thing of this.opened.splice(0)) await thing.close()
      await waitFor(
        async () => (await this.home.api('decisions')).decisions.length === 0,
        10_000,
        'the test’s prompts to be withdrawn',
      )
    })
    afterAll(async () => {
      await stopBridgedHub(this, this.opened)
    })
  }

  /** In the describe it is called in, a hub for each test, for tests that change it or the platform. */
  hubPerTest(): void {
    beforeEach(async () => {
      ;({ fake: this.fake, home: this.home, hub: this.hub } = await startBridgedHub(this.platform))
    })
    afterEach(async () => {
      await stopBridgedHub(this, this.opened)
    })
  }
}
