// The hub's store: SQLite's write-ahead log is checkpointed by a worker thread, off the event loop
// that delivers events, once the log has passed a mebibyte. What a user sees of it: the log file stops
// growing while events keep coming.
import { type ChildProcess, spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { WORKER_FROM_BYTES } from '../src/store/sqlite/off-thread-checkpoints.js'
import { CLI, TestHome } from './helpers/home.js'

let home: TestHome
let hub: ChildProcess | null = null

beforeEach(async () => {
  home = await TestHome.create()
})

afterEach(async () => {
  hub?.kill('SIGKILL')
  hub = null
  await home.cleanup()
})

it('keeps the write-ahead log bounded while events keep coming', async () => {
  hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
  await home.waitForHub()
  const secret = await home.addSource('load')
  const padding = 'x'.repeat(2_000)
  const walSizes: number[] = []
  for (let round = 0; round < 4; round++) {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${home.url}/hooks/load`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body: `round ${round} event ${i} ${padding}`,
        }).then((r) => r.status),
      ),
    )
    expect(answers.every((status) => status === 202)).toBe(true)
    await new Promise((r) => setTimeout(r, 2_000)) // the worker checkpoints every second
    walSizes.push(statSync(join(home.dir, 'switchboard.db-wal')).size)
  }
  // The first round's 200 commits write more than a mebibyte of pages to the log: the worker starts.
  // Without checkpoints each round after it would add about another; with them, each reuses the
  // space checkpointed.
  const [first = 0, , , last = 0] = walSizes
  expect(first).toBeGreaterThan(WORKER_FROM_BYTES)
  expect(last - first).toBeLessThan(WORKER_FROM_BYTES / 2)
  const db = new Database(join(home.dir, 'switchboard.db'), { readonly: true })
  try {
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 800 }) // none lost
  } finally {
    db.close()
  }
})
