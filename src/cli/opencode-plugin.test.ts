// OpenCode's plugin as `install opencode` leaves it, loaded as OpenCode loads it (an ES module whose
// exports are plugins) and handed OpenCode's events: a permission prompt goes to a hub on a socket as
// Claude Code's PermissionRequest does, saying `opencode`, and a person's answer replies through the
// plugin's client; no answer (a hub that says nothing, no hub, an answer given at OpenCode's own
// dialog first) replies nothing. The file is owner-only, never written through a link nor over a
// person's own, and `--remove` takes out only Switchboard's.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, expect, it } from 'vitest'
import {
  addOpencodePlugin,
  opencodePluginFile,
  PLUGIN_MARK,
  removeOpencodePlugin,
} from './opencode-plugin.js'

let dir: string
let file: string
let socketPath: string
let hub: Server | null
/** What the hub was asked, and whether the plugin stopped waiting (closed the request) before it answered. */
let asked: { headers: IncomingMessage['headers']; body: Record<string, unknown>; closed: Promise<void> }[]
/** What the hub answers the next request with; null: it never answers. */
let hubAnswer: Record<string, unknown> | null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-'))
  file = join(dir, 'plugin', 'switchboard.js')
  socketPath = join(dir, 'hub.sock')
  hub = null
  asked = []
  hubAnswer = {}
})
afterEach(async () => {
  if (hub) {
    hub.closeAllConnections()
    await new Promise((resolve) => hub?.close(resolve))
  }
  rmSync(dir, { recursive: true, force: true })
})

async function startHub(): Promise<void> {
  hub = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()))
      asked.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), closed })
      if (hubAnswer === null) return
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(hubAnswer))
    })
  })
  await new Promise<void>((resolve) => hub?.listen(socketPath, resolve))
}

type Reply = { url: string; path: Record<string, string>; body: Record<string, unknown> }
type Hooks = { event: (input: { event: Record<string, unknown> }) => Promise<void> }

/** The installed plugin, loaded with a client that records its replies. */
async function loaded(): Promise<{ hooks: Hooks; replies: Reply[] }> {
  addOpencodePlugin(file, { via: 'socket', socketPath, waitSeconds: 60 })
  const replies: Reply[] = []
  const client = {
    _client: {
      post: async (options: Reply) => {
        replies.push(options)
        return { data: true }
      },
    },
  }
  // A new URL each time: the module is loaded afresh, as a new OpenCode process loads it.
  const module = (await import(`${pathToFileURL(file).href}?${asked.length}-${Date.now()}`)) as Record<
    string,
    (input: unknown) => Promise<Hooks>
  >
  const plugin = Object.values(module)[0]
  if (!plugin) throw new Error('the plugin file exports nothing')
  return { hooks: await plugin({ client, directory: '/work/api' }), replies }
}

/** OpenCode's `permission.asked` event for a shell command (shared/AGENTS.md §3c). */
const permissionAsked = {
  id: 'evt_1',
  type: 'permission.asked',
  properties: {
    id: 'per_1',
    sessionID: 'ses_1',
    permission: 'bash',
    patterns: ['touch x'],
    metadata: { command: 'touch x' },
    always: ['touch *'],
    tool: { messageID: 'msg_1', callID: 'call_1' },
  },
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
  if (!check()) throw new Error(`never saw ${what}`)
}

it('asks the hub as Claude Code’s PermissionRequest, saying opencode, and allows once', async () => {
  await startHub()
  hubAnswer = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }
  const { hooks, replies } = await loaded()
  await hooks.event({ event: permissionAsked })
  await until(() => replies.length === 1, 'a reply')
  expect(asked[0]?.headers['x-switchboard-agent']).toBe('opencode')
  expect(asked[0]?.body).toEqual({
    session_id: 'ses_1',
    hook_event_name: 'PermissionRequest',
    cwd: '/work/api',
    tool_name: 'Bash',
    tool_input: { command: 'touch x' },
    tool_use_id: 'call_1',
  })
  expect(replies[0]).toMatchObject({ path: { requestID: 'per_1' }, body: { reply: 'once' } })
})

it('rejects with the person’s message, which OpenCode gives the model', async () => {
  await startHub()
  hubAnswer = {
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'not now' },
    },
  }
  const { hooks, replies } = await loaded()
  await hooks.event({ event: permissionAsked })
  await until(() => replies.length === 1, 'a reply')
  expect(replies[0]?.body).toEqual({ reply: 'reject', message: 'not now' })
})

it('does not run a call the person edited: OpenCode cannot, so it rejects and says what they would run', async () => {
  await startHub()
  hubAnswer = {
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command: 'touch y' } },
    },
  }
  const { hooks, replies } = await loaded()
  await hooks.event({ event: permissionAsked })
  await until(() => replies.length === 1, 'a reply')
  expect(replies[0]?.body).toMatchObject({ reply: 'reject' })
  expect(String(replies[0]?.body.message)).toContain('touch y')
})

it('replies nothing when the hub says nothing, or there is no hub: OpenCode’s dialog stays', async () => {
  await startHub()
  const { hooks, replies } = await loaded()
  await hooks.event({ event: permissionAsked })
  await until(() => asked.length === 1, 'the hub asked')
  await asked[0]?.closed
  hub?.closeAllConnections()
  await new Promise((resolve) => hub?.close(resolve))
  hub = null
  await hooks.event({
    event: { ...permissionAsked, properties: { ...permissionAsked.properties, id: 'per_2' } },
  })
  await new Promise((r) => setTimeout(r, 200))
  expect(replies).toEqual([])
})

it('stops asking the hub when the person answered at OpenCode’s own dialog first', async () => {
  await startHub()
  hubAnswer = null
  const { hooks, replies } = await loaded()
  await hooks.event({ event: permissionAsked })
  await until(() => asked.length === 1, 'the hub asked')
  await hooks.event({
    event: {
      type: 'permission.replied',
      properties: { sessionID: 'ses_1', requestID: 'per_1', reply: 'once' },
    },
  })
  await asked[0]?.closed
  expect(replies).toEqual([])
})

it('asks nothing in a session the hub drives, which asks through its own protocol', async () => {
  await startHub()
  const { hooks } = await loaded()
  process.env.SWITCHBOARD_DRIVEN = '1'
  try {
    await hooks.event({ event: permissionAsked })
  } finally {
    delete process.env.SWITCHBOARD_DRIVEN
  }
  await new Promise((r) => setTimeout(r, 200))
  expect(asked).toEqual([])
})

it('is owner-only and holds no token, only the socket', () => {
  addOpencodePlugin(file, { via: 'socket', socketPath, waitSeconds: 60 })
  expect(statSync(file).mode & 0o777).toBe(0o600)
  const text = readFileSync(file, 'utf8')
  expect(text.startsWith(PLUGIN_MARK)).toBe(true)
  expect(text).toContain(socketPath)
  expect(text).not.toMatch(/authorization|bearer/i)
})

it('refuses a plugin file that is a link, and a person’s own file of that name', () => {
  mkdirSync(join(dir, 'plugin'))
  const elsewhere = join(dir, 'elsewhere.js')
  writeFileSync(elsewhere, 'export const Mine = async () => ({})\n')
  symlinkSync(elsewhere, file)
  expect(() => addOpencodePlugin(file, { via: 'command', waitSeconds: 60 })).toThrow(/symbolic link/)
  expect(() => removeOpencodePlugin(file)).toThrow(/symbolic link/)
  rmSync(file)
  writeFileSync(file, 'export const Mine = async () => ({})\n')
  expect(() => addOpencodePlugin(file, { via: 'command', waitSeconds: 60 })).toThrow(
    /not Switchboard’s plugin/,
  )
  expect(removeOpencodePlugin(file)).toBe(false)
  expect(readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({})\n')
  expect(readFileSync(elsewhere, 'utf8')).toBe('export const Mine = async () => ({})\n')
})

it('takes out only Switchboard’s plugin, leaving the person’s own', () => {
  const theirs = join(dir, 'plugin', 'notify.js')
  mkdirSync(join(dir, 'plugin'))
  writeFileSync(theirs, 'export const Notify = async () => ({})\n')
  addOpencodePlugin(file, { via: 'command', waitSeconds: 60 })
  expect(removeOpencodePlugin(file)).toBe(true)
  expect(existsSync(file)).toBe(false)
  expect(readFileSync(theirs, 'utf8')).toBe('export const Notify = async () => ({})\n')
  expect(removeOpencodePlugin(file)).toBe(false)
})

it('lives where OpenCode looks: XDG_CONFIG_HOME’s opencode/plugin, or a project’s .opencode/plugin', () => {
  const before = process.env.XDG_CONFIG_HOME
  process.env.XDG_CONFIG_HOME = '/home/ann/.config'
  try {
    expect(opencodePluginFile()).toBe('/home/ann/.config/opencode/plugin/switchboard.js')
  } finally {
    if (before === undefined) delete process.env.XDG_CONFIG_HOME
    else process.env.XDG_CONFIG_HOME = before
  }
  expect(opencodePluginFile('/work/api')).toBe('/work/api/.opencode/plugin/switchboard.js')
})
