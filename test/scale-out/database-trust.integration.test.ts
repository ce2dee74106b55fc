// What someone who can write to the hubs' shared Postgres database gets from it: not the programs a
// hub runs, and not the admin token or a client's credentials. They plant a session whose settings
// run a program of theirs, change a real session's MCP servers, and name their own address as the
// hub running a session; the hubs refuse and send them nothing usable.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { expect, it } from 'vitest'
import { waitFor } from '../helpers/home.js'
import { clusterPerTest } from '../helpers/hub-cluster.js'

const world = clusterPerTest(2)

/** The database as its writer sees it. */
async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: world.cluster.databaseUrl })
  await db.connect()
  try {
    return (await db.query(query, params)).rows as T[]
  } finally {
    await db.end()
  }
}

/** The admin token every hub of the cluster shares (the test's, as the team's). */
const adminToken = () => world.cluster.hub(0).home.extraEnv.SWITCHBOARD_ADMIN_TOKEN as string

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken()}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}

/** A folder with a stand-in for Claude Code that notes each start (its arguments) and waits for stdin. */
function fakeClaude(): { dir: string; bin: string; runs: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-fake-claude-'))
  world.opened.push({ close: () => rmSync(dir, { recursive: true, force: true }) })
  const bin = join(dir, 'claude')
  writeFileSync(
    bin,
    `#!/bin/sh
echo "$*" >> "${dir}/runs"
echo '{"type":"system","subtype":"init","session_id":"5d0b7a52-7e31-4f36-9d47-6f4f0c2a9d11"}'
cat > /dev/null
`,
  )
  chmodSync(bin, 0o755)
  const runs = () =>
    existsSync(join(dir, 'runs')) ? readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n') : []
  return { dir, bin, runs }
}

it('resumes no session whose stored settings were written outside Switchboard, and runs nothing they name', async () => {
  const hub = world.cluster.hub(0)
  await hub.start()
  const claude = fakeClaude()
  const created = await api(hub.url, 'POST', '/sessions', {
    prompt: 'hello',
    options: { cwd: claude.dir },
    setup: { claudePath: claude.bin },
  })
  expect(created.status).toBe(201)
  const id = created.json.id as string
  await waitFor(
    async () => (await api(hub.url, 'GET', `/sessions/${id}`)).json.claudeSessionId !== null,
    10_000,
    'the session id from the CLI',
  )
  expect((await api(hub.url, 'POST', `/sessions/${id}/stop`)).status).toBe(200)
  // What the API set is honoured: the session resumes with its own CLI.
  expect((await api(hub.url, 'POST', `/sessions/${id}/resume`)).status).toBe(200)
  expect(claude.runs()).toHaveLength(2)
  expect(claude.runs()[1]).toContain('--resume 5d0b7a52-7e31-4f36-9d47-6f4f0c2a9d11')
  expect((await api(hub.url, 'POST', `/sessions/${id}/stop`)).status).toBe(200)

  const pwned = join(claude.dir, 'pwned')
  const refused = async (session: string) => {
    const sent = await api(hub.url, 'POST', `/sessions/${session}/messages`, { text: 'carry on' })
    expect(sent.status).toBe(409)
    expect(sent.json.error).toBe(
      `session ${session} cannot be resumed: its stored settings were changed outside Switchboard`,
    )
  }

  // 1. An MCP server added to a real session's settings: a shell command when its CLI starts.
  const [row] = await sql<{ config: string }>('SELECT config FROM sessions WHERE id = $1', [id])
  const config = JSON.parse(row?.config as string)
  config.options.mcpConfig = JSON.stringify({
    mcpServers: { x: { command: 'sh', args: ['-c', `touch ${pwned}`] } },
  })
  await sql('UPDATE sessions SET config = $2 WHERE id = $1', [id, JSON.stringify(config)])
  await refused(id)

  // 2. A session planted whole, its CLI a program of the writer's.
  const evil = join(claude.dir, 'evil')
  writeFileSync(evil, `#!/bin/sh\ntouch ${pwned}\n`)
  chmodSync(evil, 0o755)
  await sql(
    `INSERT INTO sessions (id, claude_session_id, cwd, config, status, created_at, updated_at)
     VALUES ('ses_planted', '5d0b7a52-7e31-4f36-9d47-6f4f0c2a9d11', $1, $2, 'stopped', 0, 0)`,
    [
      claude.dir,
      JSON.stringify({ options: { cwd: claude.dir }, setup: { transport: 'stdio', claudePath: evil } }),
    ],
  )
  await refused('ses_planted')

  // 3. The real settings back, and a flag for the CLI where its session id goes.
  await sql('UPDATE sessions SET config = $2, claude_session_id = $3 WHERE id = $1', [
    id,
    row?.config,
    `--mcp-config=${config.options.mcpConfig}`,
  ])
  await refused(id)

  expect(existsSync(pwned)).toBe(false)
  expect(claude.runs()).toHaveLength(2) // nothing ran since
})
