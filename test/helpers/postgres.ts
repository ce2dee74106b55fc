// A throwaway PostgreSQL server from Debian's `postgresql` package: a new cluster in a temporary
// folder, on a free loopback port, for one test file or one bench run. Each store under test gets a
// database of its own (`database()`), so tests never see each other's rows.
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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
  /** Stops the server and removes its folder. */
  stop(): Promise<void>
}

let databases = 0

export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
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
  await run(
    ...asServerUser(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=300${speed}`,
      'start',
    ]),
  )
  const admin = `postgresql://postgres@127.0.0.1:${port}`
  return {
    port,
    async database() {
      const name = `sb_${process.pid}_${++databases}`
      const client = new pg.Client({ connectionString: `${admin}/postgres` })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return `${admin}/${name}`
    },
    async stop() {
      await run(...asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])).catch(
        () => {},
      )
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
