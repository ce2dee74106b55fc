// Retention on a running hub: under a steady stream, what is old and delivered is deleted, so the
// database stays the same size however long the stream runs.
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

/** Events still stored, delivered or not, read straight from the database file. */
function eventRows(): number {
  const db = new Database(join(world.home.dir, 'switchboard.db'), { readonly: true })
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('retention', () => {
  it('keeps the database bounded under a steady stream', { timeout: 120_000 }, async () => {
    // Two seconds, so a test sees many generations come and go: before the hub the CLI starts reads it.
    writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ retentionDays: 2 / 86_400 }))
    const secret = await world.home.addSource('ci')
    const c = await ChannelClient.start(world.home, ['--name', 'steady'])
    world.opened.push(c)
    const sizes: number[] = []
    let sent = 0
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 600; i++, sent++) {
        const res = await fetch(`${world.home.url}/hooks/ci`, {
          method: 'POST',
          body: `event ${sent} ${'x'.repeat(400)}`,
          headers: { authorization: `Bearer ${secret}` },
        })
        expect(res.status).toBe(202)
      }
      await c.waitForEvents(sent, 30_000)
      // Only the newest event stays once the rest are old and delivered.
      await waitFor(() => eventRows() <= 1, 30_000, 'old events to be deleted')
      sizes.push(statSync(join(world.home.dir, 'switchboard.db')).size)
    }
    expect(c.events).toHaveLength(1800)
    expect(sizes[2]).toBeLessThanOrEqual((sizes[0] ?? 0) * 1.25 + 65_536)
  })
})
