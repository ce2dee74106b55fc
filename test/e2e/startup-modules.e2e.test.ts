// What `switchboard channel` and `switchboard --version` load: what they use and nothing else. The
// time it takes is bench/startup's to measure; this keeps the heavy parts (the store and SQLite, pino,
// the hub, the other commands) from coming back into them unnoticed.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CLI, TestHome } from '../helpers/home.js'
import { ImportRecord } from '../helpers/imports.js'

const NEVER_IN_THE_CHANNEL = [
  'node_modules/better-sqlite3/',
  'node_modules/pino/',
  'src/store/',
  'src/hub/',
  'src/mcp/',
  'src/client/api-client.ts',
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

/**
 * The CLI with every module it loads recorded; `loaded` resolves once `done` holds for its stdout, with
 * the sources that went into them (ImportRecord.sources).
 */
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
    const finish = () => settle(() => resolve(record.sources()))
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
  const sources = await channel.loaded
  expect(sources.some((s) => s.startsWith('node_modules/@modelcontextprotocol/sdk/'))).toBe(true)
  for (const heavy of NEVER_IN_THE_CHANNEL) expect(sources.filter((s) => s.startsWith(heavy))).toEqual([])
  const commands = sources.filter((s) => s.startsWith('src/cli/')).map((s) => s.replace('src/cli/', ''))
  expect(commands.sort()).toEqual(['channel-log.ts', 'channel.ts', 'flags.ts', 'main.ts'])
})

it('switchboard --version loads no command, no schema and no package, not even the parser', async () => {
  const sources = await recorded(['--version'], (out) => out.endsWith('\n')).loaded
  expect(sources.filter((s) => s.startsWith('node_modules/'))).toEqual([])
  expect(sources.filter((s) => s.startsWith('src/') && !s.startsWith('src/core/'))).toEqual([
    'src/cli/main.ts',
  ])
})
