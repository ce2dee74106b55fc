// The hubs a soak runs against: one on its SQLite file (the default), or several on a throwaway
// Postgres database, each its own home and port, sharing the admin token. Channels get the list of
// hubs (SWITCHBOARD_HUBS) in an order of their own, so that they spread over the hubs.
import { type ChildProcess, spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CLI, TestHome, waitFor } from '../../test/helpers/home.js'
import { HubCluster } from '../../test/helpers/hub-cluster.js'
import { type PostgresServer, startPostgres } from '../../test/helpers/postgres.js'

export interface SoakHubs {
  /** Each hub's base URL, in order. */
  urls: string[]
  adminToken: string
  /** The hub processes, for their memory. */
  pids(): number[]
  /** The environment of channel `i`: its hub, or every hub starting from one of its own. */
  channelEnv(i: number): Record<string, string>
  /** `switchboard source add <args>` through the first hub; the secret it printed. */
  addSource(...args: string[]): Promise<string>
  /** Each hub's log file (in its home, gone after stop()). */
  logs(): string[]
  stop(): Promise<void>
}

export async function startHubs(count: number): Promise<SoakHubs> {
  return count === 1 ? oneOnSqlite() : onPostgres(count)
}

/**
 * The hub's log goes to a file in its home, kept for as long as the home is. SOAK_HUB_NODE_ARGS
 * gives the hubs' node flags of its own (`--cpu-prof --cpu-prof-dir=/tmp/prof`, to see where a slow
 * hub spends its time).
 */
function serve(home: TestHome): ChildProcess {
  const out = openSync(join(home.dir, 'hub.log'), 'a')
  const flags = (process.env.SOAK_HUB_NODE_ARGS ?? '').split(' ').filter(Boolean)
  return spawn(process.execPath, [...flags, CLI, 'serve'], { env: home.env, stdio: ['ignore', out, out] })
}

async function oneOnSqlite(): Promise<SoakHubs> {
  const home = await TestHome.create()
  const hub = serve(home)
  await home.waitForHub(30_000)
  const adminToken = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
  return {
    urls: [home.url],
    adminToken,
    pids: () => (hub.pid ? [hub.pid] : []),
    channelEnv: () => home.env as Record<string, string>,
    addSource: (...args) => home.cli('source', 'add', ...args).then(secretOf),
    logs: () => [join(home.dir, 'hub.log')],
    async stop() {
      await home.cleanup()
    },
  }
}

async function onPostgres(count: number): Promise<SoakHubs> {
  let server: PostgresServer | null = null
  let cluster: HubCluster | null = null
  const processes: ChildProcess[] = []
  const stop = async () => {
    for (const p of processes) p.kill('SIGTERM')
    await cluster?.cleanup()
    await server?.stop()
  }
  try {
    server = await startPostgres()
    cluster = await HubCluster.create(await server.database(), count)
    for (const h of cluster.hubs) {
      processes.push(serve(h.home))
      await h.home.waitForHub(30_000)
    }
    const c = cluster
    const first = c.hub(0).home
    const adminToken = first.extraEnv.SWITCHBOARD_ADMIN_TOKEN ?? ''
    // Every hub has said where it is before a channel is given the list.
    await waitFor(
      async () => {
        const res = await fetch(`${first.url}/api/status`, {
          headers: { authorization: `Bearer ${adminToken}` },
        })
        const status = (await res.json()) as { hubs?: unknown[] }
        return (status.hubs?.length ?? 0) >= count
      },
      30_000,
      `${count} hubs alive on the database`,
    )
    return {
      urls: c.hubs.map((h) => h.url),
      adminToken,
      pids: () => processes.flatMap((p) => (p.pid ? [p.pid] : [])),
      channelEnv: (i) => {
        const order = c.hubs.map((_, k) => (i + k) % count)
        return {
          ...(c.hub(i % count).home.env as Record<string, string>),
          SWITCHBOARD_HUBS: c.hubsList(order),
        }
      },
      addSource: (...args) => first.cli('source', 'add', ...args).then(secretOf),
      logs: () => c.hubs.map((h) => join(h.home.dir, 'hub.log')),
      stop,
    }
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
}

const secretOf = (out: string) => /secret: (\S+)/.exec(out)?.[1] ?? ''
