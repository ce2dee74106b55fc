// Binding a driven session to an IDE (seed 001) with the real CLI: a fake IDE's MCP server announced
// by a lock file in ~/.claude/ide, found by `switchboard ide list`, connected to once the session is
// bound, and let go when it is unbound.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeEach, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { SDK_URL_CLI } from '../helpers/claude.js'
import { adminCall, drivingEnv, e2eWorld, startDrivingHub } from '../helpers/e2e.js'
import { CLI, freePort, waitFor } from '../helpers/home.js'

const execCli = promisify(execFile)
const IDE_TOKEN = 'fake-ide-token-1234'
const world = e2eWorld()

/** What the fake IDE saw: connections (with their auth header), MCP methods called, closes. */
const seen = { connections: [] as (string | undefined)[], methods: [] as string[], closed: 0 }

/** An IDE's MCP server over WebSocket, as the Claude Code extensions run one: JSON-RPC, one tool. */
async function startFakeIde(): Promise<number> {
  const port = await freePort()
  const ideServer = new WebSocketServer({ port, host: '127.0.0.1' })
  world.closers.push(() => new Promise((r) => ideServer.close(r)))
  ideServer.on('connection', (ws, req) => {
    seen.connections.push(req.headers['x-claude-code-ide-authorization'] as string | undefined)
    ws.on('close', () => seen.closed++)
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; method: string }
      seen.methods.push(msg.method)
      if (msg.id === undefined) return
      const result =
        msg.method === 'initialize'
          ? {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'fake-ide', version: '1' },
            }
          : msg.method === 'tools/list'
            ? {
                tools: [
                  { name: 'getDiagnostics', description: 'diagnostics', inputSchema: { type: 'object' } },
                ],
              }
            : {}
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }))
    })
  })
  return port
}

beforeEach(async () => {
  seen.connections = []
  seen.methods = []
  seen.closed = 0
  await startDrivingHub(world)
})

async function cli(...args: string[]) {
  const { stdout } = await execCli(process.execPath, [CLI, ...args], { env: drivingEnv(world) })
  return stdout
}

/** A session the hub drives with `claudePath` (the CLI that takes an IDE from outside), once idle. */
async function idleSession(claudePath?: string): Promise<string> {
  world.fake.respond(() => ({ text: 'ready' }))
  const created = await adminCall<{ id: string }>(world, 'POST', '/api/sessions', {
    prompt: 'hello',
    options: { cwd: world.claude.cwd },
    ...(claudePath ? { setup: { claudePath } } : {}),
  })
  const { id } = created.json
  await waitFor(async () => (await cli('sessions', 'show', id)).includes(': idle'), 60_000, 'the first turn')
  return id
}

function writeLock(port: number, extra: Record<string, unknown> = {}): void {
  const ideDir = join(world.claude.home, '.claude', 'ide')
  mkdirSync(ideDir, { recursive: true })
  const lock = {
    pid: process.pid,
    workspaceFolders: [world.claude.cwd],
    ideName: 'FakeIDE',
    transport: 'ws',
    useWebSocket: true,
    authToken: IDE_TOKEN,
    ...extra,
  }
  writeFileSync(join(ideDir, `${port}.lock`), JSON.stringify(lock))
}

it('lists live IDEs, binds a session to one, and unbinds it (CLI 2.1.119, as seed 001 describes)', {
  timeout: 90_000,
}, async () => {
  const port = await startFakeIde()
  writeLock(port)
  // An IDE that is gone: its lock is pruned.
  const dead = spawn(process.execPath, ['-e', ''])
  await new Promise((r) => dead.once('exit', r))
  writeLock(1, { pid: dead.pid, ideName: 'Gone' })

  expect(await cli('ide', 'list')).toBe(`${port}\tFakeIDE\t${world.claude.cwd}\n`)
  expect(existsSync(join(world.claude.home, '.claude', 'ide', '1.lock'))).toBe(false)

  const id = await idleSession(SDK_URL_CLI)
  expect(await cli('sessions', 'ide', id, 'fakeide')).toBe(`${id} uses FakeIDE (port ${port})\n`)
  await waitFor(() => seen.methods.includes('tools/list'), 30_000, 'the CLI to list the IDE’s tools')
  expect(seen.connections).toEqual([IDE_TOKEN])
  expect(seen.methods[0]).toBe('initialize')
  expect(await cli('sessions', 'show', id)).toContain(`IDE: FakeIDE (port ${port})`)

  expect(await cli('sessions', 'ide', id, '--unbind')).toBe(`${id} uses no IDE\n`)
  await waitFor(() => seen.closed === 1, 30_000, 'the CLI to let the IDE go')
})

it('says so when the CLI takes no IDE from outside (current Claude Code)', { timeout: 90_000 }, async () => {
  writeLock(await startFakeIde())
  const id = await idleSession()
  const refused = await execCli(process.execPath, [CLI, 'sessions', 'ide', id, 'FakeIDE'], {
    env: drivingEnv(world),
  }).catch((err: { code: number; stderr: string }) => err)
  expect(refused).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(
      /^switchboard: this Claude Code took no IDE: .*registered by the CLI itself/,
    ),
  })
  expect(seen.connections).toEqual([])
})
