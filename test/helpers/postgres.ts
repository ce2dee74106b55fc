// A throwaway PostgreSQL server from Debian's `postgresql` package: a new cluster in a temporary
// folder, on a free loopback port, for one test file or one bench run. Each store under test gets a
// database of its own (`database()`), so tests never see each other's rows.
import { execFile } from 'node:child_process'
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { startsProcesses } from './fast-loop.js'
import { freePort } from './home.js'

const run = promisify(execFile)

/** The server's programs: on PATH, else where Debian's package puts them (not on PATH). */
function binDir(): string {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'initdb'))) return dir
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : []
  for (const v of versions) {
    const dir = `/usr/lib/postgresql/${v}/bin`
    if (existsSync(join(dir, 'pg_ctl'))) return dir
  }
  throw new Error(
    "PostgreSQL's server is not installed: these tests need Debian's postgresql package (.ci/run installs it)",
  )
}

/** The server refuses to run as root: as root, it runs as the package's `postgres` user. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [bin, args]
  return ['runuser', ['-u', 'postgres', '--', bin, ...args]]
}

export interface PostgresServer {
  readonly port: number
  /** A new, empty database on this server, and its URL. */
  database(): Promise<string>
  /** A new database on this server, empty or a copy of database `template`, and its name (see `url`). */
  newDatabase(template?: string): Promise<string>
  /** The URL of database `name` at `host` (one of the addresses the server listens on). */
  url(name: string, host: string): string
  /** Drops database `name`, closing whatever is still connected to it. */
  dropDatabase(name: string): Promise<void>
  /** Stops the server and removes its folder. */
  stop(): Promise<void>
}

let databases = 0

export interface PostgresOptions {
  durable?: boolean
  /**
   * Run inside this network namespace (`ip netns exec`), listening on `listen` and letting in whoever
   * comes from `trust` (a CIDR): the partition test's own. This process reaches it on its Unix socket.
   */
  netns?: { name: string; listen: string[]; trust: string }
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  startsProcesses('a Postgres server')
  const bin = binDir()
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-pg-'))
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir])
  else chmodSync(dir, 0o700)
  const data = join(dir, 'data')
  const port = await freePort()
  await run(...asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']))
  // Tests need no crash safety from the server; a bench measures the real thing (`durable`).
  const speed = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'
  writeFileSync(join(dir, 'server.log'), '')
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', join(dir, 'server.log')])
  const { netns } = options
  if (netns) appendFileSync(join(data, 'pg_hba.conf'), `host all all ${netns.trust} trust\n`)
  const listen = netns ? netns.listen.join(',') : '127.0.0.1'
  const [command, args] = asServerUser(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -c listen_addresses=${listen} -k ${dir} -c max_connections=300${speed}`,
    'start',
  ])
  await (netns ? run('ip', ['netns', 'exec', netns.name, command, ...args]) : run(command, args))
  const url = (name: string, host: string) => `postgresql://postgres@${host}:${port}/${name}`
  const asAdmin = async (sql: string) => {
    // On the Unix socket: the server may listen on no address this process can reach.
    const client = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  const server: PostgresServer = {
    port,
    url,
    async database() {
      return url(await server.newDatabase(), '127.0.0.1')
    },
    async newDatabase(template) {
      const name = `sb_${process.pid}_${++databases}`
      // A copy of the files, not of every block through the log: 210 ms rather than 300 (PostgreSQL 15+).
      await asAdmin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template} STRATEGY FILE_COPY` : ''}`)
      return name
    },
    async dropDatabase(name) {
      await asAdmin(`DROP DATABASE ${name} WITH (FORCE)`)
    },
    async stop() {
      await run(...asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])).catch(
        () => {},
      )
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}
