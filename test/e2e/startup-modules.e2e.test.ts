// What `switchboard channel` and `switchboard --version` load: what they use and nothing else. The
// time it takes is bench/startup's to measure; this keeps the heavy parts (the store and SQLite, pino,
// the hub, the other commands) from coming back into them unnoticed.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CLI, TestHome } from '../helpers/home.js'
import { ImportRecord } from '../helpers/imports.js'

const NEVER_IN_THE_CHANNEL = [
  '/better-sqlite3/',
  '/pino/',
  '/dist/store/',
  '/dist/hub/',
  '/dist/mcp/',
  '/api-client.js',
]

let home: TestHome
let record: ImportRecord
const children: ChildProcessWithoutNullStreams[] = []

beforeEach(async () => {
  home = await TestHome.create()
  record = ImportRecord.create()
})
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await home.cleanup()
  record.close()
})

/** The CLI with every module it loads recorded; `loaded` resolves once `done` holds for its stdout. */
function recorded(args: string[], done: (stdout: string) => boolean) {
  const child = spawn(process.execPath, [CLI, ...args], { env: record.env(home.env) })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const loaded = new Promise<string[]>((resolve, reject) => {
    let settled = false
    const settle = (fn: () => void) => {
      if (!settled) fn()
      settled = true
    }
    const finish = () => settle(() => resolve(record.modules()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
      if (done(stdout)) finish()
    })
    child.on('exit', (code) =>
      done(stdout) ? finish() : settle(() => reject(new Error(`exited ${code}: ${stderr}`))),
    )
  })
  return { child, loaded }
}

it('switchboard channel answers initialize without the store, pino, the hub or other commands', async () => {
  children.push(spawn(process.execPath, [CLI, 'serve'], { env: home.env }))
  await home.waitForHub()
  const channel = recorded(['channel', '--name', 'modules'], (out) => out.includes('"id":1'))
  const params = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'test', version: '0' },
  }
  channel.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`)
  const modules = await channel.loaded
  expect(modules.some((m) => m.includes('/@modelcontextprotocol/sdk/'))).toBe(true)
  for (const heavy of NEVER_IN_THE_CHANNEL) expect(modules.filter((m) => m.includes(heavy))).toEqual([])
  const commands = modules
    .filter((m) => m.includes('/dist/cli/'))
    .map((m) => m.replace(/.*\/dist\/cli\//, ''))
  expect(commands.sort()).toEqual(['channel-log.js', 'channel.js', 'flags.js', 'main.js'])
})

it('switchboard --version loads no command, no schema and no package, not even the parser', async () => {
  const modules = await recorded(['--version'], (out) => out.endsWith('\n')).loaded
  expect(modules.filter((m) => m.includes('/node_modules/'))).toEqual([])
  expect(modules.filter((m) => /\/dist\/cli\/(?!main\.js)/.test(m))).toEqual([])
  expect(modules.filter((m) => /\/(zod|@modelcontextprotocol|ws|pino|better-sqlite3)\//.test(m))).toEqual([])
})
