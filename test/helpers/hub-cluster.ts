// Several hubs on one Postgres database, as a team would run them: each hub its own home and port,
// all given the same SWITCHBOARD_DATABASE_URL and SWITCHBOARD_ADMIN_TOKEN.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { alive, CLI, TestHome, waitFor } from './home.js'
import { type PostgresServer, startPostgres } from './postgres.js'

export class ClusterHub {
  process: ChildProcess | null = null
  readonly log: string[] = []

  constructor(readonly home: TestHome) {}

  get url(): string {
    return this.home.url
  }

  get address(): string {
    return `127.0.0.1:${this.home.port}`
  }

  /** `serve` with these flags (`--host 0.0.0.0`: TLS beyond loopback). */
  async start(...flags: string[]): Promise<void> {
    const hub = spawn(process.execPath, [CLI, 'serve', ...flags], {
      env: this.home.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    hub.stderr?.on('data', (chunk) => this.log.push(String(chunk)))
    this.process = hub
    // A hub that does not come up says why only on its stderr: the failure carries it.
    await this.home.waitForHub().catch((err: Error) => {
      const ended = hub.exitCode ?? hub.signalCode
      const said = this.log.join('').trim().slice(-4_000) || 'nothing on stderr'
      throw new Error(
        `${err.message} (${ended === null ? 'still running' : `ended: ${ended}`}); it said: ${said}`,
      )
    })
  }

  /** SIGKILL: the hub gets no chance to hand anything over. */
  async kill(): Promise<void> {
    const pid = this.process?.pid
    if (!pid) return
    this.process?.kill('SIGKILL')
    this.process = null
    await waitFor(() => !alive(pid), 10_000, `hub ${pid} to die`)
  }
}

export class HubCluster {
  private constructor(
    readonly hubs: ClusterHub[],
    readonly databaseUrl: string,
  ) {}

  /** `count` homes sharing one database and one admin token; no hub started yet. */
  static async create(databaseUrl: string, count: number): Promise<HubCluster> {
    const adminToken = `sba_${randomBytes(24).toString('hex')}`
    const hubs: ClusterHub[] = []
    for (let i = 0; i < count; i++) {
      const home = await TestHome.create()
      home.extraEnv.SWITCHBOARD_DATABASE_URL = databaseUrl
      home.extraEnv.SWITCHBOARD_ADMIN_TOKEN = adminToken
      hubs.push(new ClusterHub(home))
    }
    return new HubCluster(hubs, databaseUrl)
  }

  hub(i: number): ClusterHub {
    const hub = this.hubs[i]
    if (!hub) throw new Error(`no hub ${i}`)
    return hub
  }

  /** SWITCHBOARD_HUBS for a channel or CLI that may use any of these hubs, in this order. */
  hubsList(order: number[] = this.hubs.map((_, i) => i)): string {
    return order.map((i) => this.hub(i).address).join(',')
  }

  async startAll(): Promise<void> {
    await Promise.all(this.hubs.map((h) => h.start()))
  }

  async cleanup(): Promise<void> {
    for (const h of this.hubs) {
      await h.kill()
      await h.home.cleanup()
    }
  }
}

/**
 * For a test file: one Postgres server, and for each test a new database with `count` hubs on it
 * (not started; `env` set for each) in `world.cluster`. What a test opened (`world.opened`, channels
 * say) is closed after it, before the hubs are stopped.
 */
export function clusterPerTest(
  count: number,
  env: Record<string, string> = {},
): { cluster: HubCluster; opened: { close(): unknown }[] } {
  const world = { cluster: undefined as unknown as HubCluster, opened: [] as { close(): unknown }[] }
  let server: PostgresServer
  beforeAll(async () => {
    server = await startPostgres()
  }, 60_000)
  afterAll(() => server?.stop())
  beforeEach(async () => {
    world.cluster = await HubCluster.create(await server.database(), count)
    for (const h of world.cluster.hubs) Object.assign(h.home.extraEnv, env)
  })
  afterEach(async () => {
    for (const thing of world.opened.splice(0)) await Promise.resolve(thing.close()).catch(() => {})
    await world.cluster.cleanup()
  })
  return world
}
