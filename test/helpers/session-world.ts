// A session controller in the test's own process, as `switchboard serve` puts one together but
// without a hub process or HTTP: a SQLite store in a temp folder, the hub's core, and CLIs that are
// the scripted fake (fake-claude.ts). What the unit tests of src/hub/sessions/ stand on.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import type { SessionView } from '../../src/core/session-api.js'
import { Hub } from '../../src/hub/core/hub.js'
import { LeaseKeeper } from '../../src/hub/core/lease-keeper.js'
import { SessionManager } from '../../src/hub/sessions/session-manager.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { Store } from '../../src/store/store.js'
import { type FakeClaude, type FakeScript, fakeClaude } from './fake-claude.js'
import { waitFor } from './home.js'

export const SEAL_KEY = 'sbt_test-admin-token'

export interface SessionWorld {
  dir: string
  store: Store
  hub: Hub
  sessions: SessionManager
  fake: FakeClaude
  /** Waits until the session's view passes `check`; returns that view. */
  until(id: string, check: (v: SessionView) => boolean, what: string): Promise<SessionView>
  close(): Promise<void>
}

export interface WorldOptions {
  idleMinutes?: number
  ideFolder?: string
  /** Replaces the fake's environment (a CLI that is not there, say). */
  env?: NodeJS.ProcessEnv
}

export function sessionWorld(script: FakeScript = {}, options: WorldOptions = {}): SessionWorld {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-sessions-'))
  const store = openSqliteStore(join(dir, 'switchboard.db'))
  const log = pino({ level: 'silent' })
  // The one hub on its database: every lease is its own (the lease tests add the others).
  const hub = new Hub(store, log, new LeaseKeeper(store, 'hub_here', log, () => null, 60_000))
  const fake = fakeClaude(dir, script)
  const sessions = new SessionManager(
    store,
    hub,
    log,
    SEAL_KEY,
    { env: options.env ?? fake.env },
    options.idleMinutes ?? 0,
    options.ideFolder ?? join(dir, 'ide'),
  )
  return {
    dir,
    store,
    hub,
    sessions,
    fake,
    async until(id, check, what) {
      const seen: { view?: SessionView } = {}
      await waitFor(
        async () => {
          seen.view = await sessions.view(id)
          return check(seen.view)
        },
        10_000,
        what,
      )
      if (!seen.view) throw new Error(`no view of ${id}`)
      return seen.view
    },
    async close() {
      await sessions.stopAll()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
