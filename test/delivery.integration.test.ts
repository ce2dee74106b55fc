// The delivery promise across crashes: Claude sees each event once, even when the channel that
// showed it dies before the hub heard its acknowledgement.
import { describe, expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { alive, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

async function channel(args: string[]): Promise<ChannelClient> {
  const c = await ChannelClient.start(world.home, args)
  world.opened.push(c)
  return c
}

function webhook(secret: string, text: string, key?: string) {
  return fetch(`${world.home.url}/hooks/ci`, {
    method: 'POST',
    body: text,
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'text/plain',
      ...(key ? { 'idempotency-key': key } : {}),
    },
  })
}

describe('a channel restarted under the same name', () => {
  it('does not show Claude what its predecessor showed but could not acknowledge', async () => {
    const secret = await world.home.addSource('ci')
    const first = await channel(['--name', 'work'])
    await world.home.waitForHub()
    const hub = world.home.hubPid() as number
    // The hub is frozen the moment the event is shown, so no acknowledgement of it is ever stored.
    first.onEvent = () => process.kill(hub, 'SIGSTOP')
    // A channel is shown an event before its sender hears 202 (see Hub.publish), so the hub may be
    // frozen before it answers; a sender that heard nothing retries with the same key.
    const sent = webhook(secret, 'shown once', 'k1').then(
      (r) => r.status,
      () => null,
    )
    const [shown] = await first.waitForEvents(1)
    // Shown means written and recorded. The record follows the write in the same synchronous step,
    // but this test reads the pipe and kills at once: on two busy cores the reader woken by the
    // write once ran, and killed, before the writer's next system call (README, "Where it ends").
    const id = String(shown?.meta?.event_id)
    await waitFor(() => world.home.shownLogHolds('work', id), 10_000, 'the shown log to hold it')
    process.kill(first.pid as number, 'SIGKILL')
    process.kill(hub, 'SIGKILL')
    process.kill(hub, 'SIGCONT')
    await waitFor(() => !alive(hub), 10_000, 'the frozen hub to die')

    const second = await channel(['--name', 'work'])
    await world.home.waitForHub()
    if ((await sent) !== 202) expect([200, 202]).toContain((await webhook(secret, 'shown once', 'k1')).status)
    expect((await webhook(secret, 'after the restart')).status).toBe(202)
    await second.waitForEvents(1)
    await new Promise((r) => setTimeout(r, 500))
    expect(second.events.map((e) => e.content)).toEqual(['after the restart'])
    expect(await world.home.pending('work')).toBe(0)
  })
})
