// OpenCode's side of Switchboard: a local plugin (ESM, no dependencies) in OpenCode's plugin folder,
// which OpenCode loads at start. OpenCode's own `permission.ask` hook is never called (shared/
// AGENTS.md §3c), so the plugin listens for the `permission.asked` event, which comes as OpenCode puts
// its dialog up, posts it to the hub's hook route as Claude Code's PermissionRequest hook does
// (`x-switchboard-agent: opencode`), and replies to OpenCode through its SDK client with a person's
// answer: allow once, or reject with the person's message. Anything else (no hub, a refusal, the
// wait ended) replies nothing, so OpenCode's dialog stays for the person at the terminal; an answer
// given there first (`permission.replied`) ends the hub's wait, which closes the decision. The file
// holds no secret: it reaches the hub down the home's owner-only socket, or through `switchboard hook`.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { HOOK_HEADERS, HOOK_ROUTE_PATH } from '../core/claude-hooks.js'
import { DRIVEN_ENV } from '../core/driven.js'
import { invalid } from '../core/errors.js'
import { replacePrivateFile } from '../core/private-file.js'
import { SETTINGS } from '../core/settings/table.js'
import { notALink } from './claude-settings.js'

/** The plugin's file name in OpenCode's plugin folder. */
export const PLUGIN_NAME = 'switchboard.js'
/** The plugin's first line: what tells Switchboard's file from a person's own of the same name. */
export const PLUGIN_MARK = '// Switchboard’s OpenCode plugin, written by `switchboard install opencode`'
/** The plugin stops waiting this long after the hub's own deadline (the hub answers first). */
const DIALOG_MARGIN_SECONDS = 30
const EVENT = 'PermissionRequest'

/**
 * How the plugin reaches the hub: the home's socket (a request from inside OpenCode, nothing to
 * start), or `switchboard hook PermissionRequest --agent opencode`, which finds the hub as the CLI does.
 */
export type PluginTarget =
  | { via: 'socket'; socketPath: string; waitSeconds: number }
  | { via: 'command'; waitSeconds: number }

/**
 * `$XDG_CONFIG_HOME/opencode/plugin/switchboard.js` (`~/.config` when that is not set), which every
 * OpenCode session loads; for a project, `<dir>/.opencode/plugin/switchboard.js`.
 */
export function opencodePluginFile(project?: string): string {
  if (project) return join(resolve(project), '.opencode', 'plugin', PLUGIN_NAME)
  const config = process.env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(resolve(config), 'opencode', 'plugin', PLUGIN_NAME)
}

/** The plugin's text for this target. */
export function pluginSource(target: PluginTarget): string {
  const seconds = target.waitSeconds + DIALOG_MARGIN_SECONDS
  const hub = {
    ...(target.via === 'socket' ? { socketPath: target.socketPath } : {}),
    path: `${HOOK_ROUTE_PATH}${EVENT}`,
    seconds,
    headers: { timeout: HOOK_HEADERS.timeout, name: HOOK_HEADERS.name, agent: HOOK_HEADERS.agent },
    nameVariable: SETTINGS.channelName.variable,
    drivenVariable: DRIVEN_ENV,
  }
  return `${PLUGIN_MARK}; \`switchboard install opencode --remove\` takes it out.
// OpenCode's permission prompts go to the Switchboard hub as Claude Code's PermissionRequest hook's do,
// and a person's answer there replies to OpenCode: allow once, or reject with their message. When no
// person answers (no hub, a refusal, the wait ended) it replies nothing, and OpenCode's own dialog
// decides. It holds no secret: it reaches the hub ${target.via === 'socket' ? 'down the home’s owner-only socket' : 'through `switchboard hook`'}.
import { spawn } from 'node:child_process'
import { request } from 'node:http'

const HUB = ${JSON.stringify(hub, null, 2)}

/** OpenCode's permission names, as Claude Code's tools are named on every surface. */
const TOOLS = { bash: 'Bash', edit: 'Edit', write: 'Write', webfetch: 'WebFetch', read: 'Read' }

export const Switchboard = async ({ client, directory }) => {
  /** The prompts the hub is asked about, by OpenCode's request id: stopped when answered elsewhere. */
  const asking = new Map()
  return {
    event: async ({ event }) => {
      if (event?.type === 'permission.replied') asking.get(event.properties?.requestID)?.abort()
      // A session the hub drives asks through its own protocol; this would ask twice.
      else if (event?.type === 'permission.asked' && process.env[HUB.drivenVariable] !== '1')
        // Not awaited: the answer may come from OpenCode's own dialog while the hub waits.
        void settle(client, directory, event.properties, asking)
    },
  }
}

async function settle(client, directory, asked, asking) {
  if (!asked?.id || !asked.sessionID) return
  const stop = new AbortController()
  asking.set(asked.id, stop)
  const timer = setTimeout(() => stop.abort(), HUB.seconds * 1000)
  try {
    const output = await (HUB.socketPath ? viaSocket : viaCommand)(hookInput(asked, directory), stop.signal)
    const reply = replyOf(output?.hookSpecificOutput?.decision)
    if (reply && !stop.signal.aborted) await answer(client, asked, reply)
  } catch {
    // No hub, a refusal, a prompt already answered: OpenCode's own dialog decides.
  } finally {
    clearTimeout(timer)
    asking.delete(asked.id)
  }
}

/** The prompt as Claude Code's PermissionRequest hook input. */
function hookInput(asked, directory) {
  const metadata = asked.metadata && typeof asked.metadata === 'object' ? asked.metadata : {}
  const patterns = Array.isArray(asked.patterns) ? asked.patterns : []
  const toolInput =
    asked.permission === 'bash'
      ? { command: typeof metadata.command === 'string' ? metadata.command : patterns.join(' && ') }
      : { ...metadata, patterns }
  return {
    session_id: asked.sessionID,
    hook_event_name: '${EVENT}',
    cwd: directory,
    tool_name: TOOLS[asked.permission] ?? String(asked.permission),
    tool_input: toolInput,
    ...(asked.tool?.callID ? { tool_use_id: asked.tool.callID } : {}),
  }
}

/** A person's answer as OpenCode's reply; null when nobody answered. */
function replyOf(decision) {
  if (decision?.behavior === 'deny')
    return decision.message ? { reply: 'reject', message: decision.message } : { reply: 'reject' }
  if (decision?.behavior !== 'allow') return null
  // OpenCode runs the call as the model made it or not at all: an edited call is not run, and the
  // model is told what the person would run instead.
  if (decision.updatedInput)
    return {
      reply: 'reject',
      message: 'The person changed this call, which OpenCode cannot run as changed: ' + JSON.stringify(decision.updatedInput),
    }
  return { reply: 'once' }
}

/** Replies through OpenCode's own server, which the plugin's client reaches in-process. */
async function answer(client, asked, reply) {
  if (typeof client?._client?.post === 'function') {
    const result = await client._client.post({
      url: '/permission/{requestID}/reply',
      path: { requestID: asked.id },
      body: reply,
      headers: { 'Content-Type': 'application/json' },
    })
    if (!result?.error) return
  }
  // The older route takes no message: a reject ends the turn there.
  await client.postSessionIdPermissionsPermissionId({
    path: { id: asked.sessionID, permissionID: asked.id },
    body: { response: reply.reply },
  })
}

function headers() {
  return {
    'content-type': 'application/json',
    [HUB.headers.timeout]: String(HUB.seconds),
    [HUB.headers.name]: process.env[HUB.nameVariable] ?? '',
    [HUB.headers.agent]: 'opencode',
  }
}

function viaSocket(input, signal) {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: HUB.socketPath, method: 'POST', path: HUB.path, headers: headers() }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error('the hub answered ' + res.statusCode))
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        } catch (err) {
          reject(err)
        }
      })
    })
    req.on('error', reject)
    signal.addEventListener('abort', () => req.destroy(new Error('stopped')), { once: true })
    req.end(JSON.stringify(input))
  })
}

function viaCommand(input, signal) {
  return new Promise((resolve, reject) => {
    const child = spawn('switchboard', ['hook', '${EVENT}', '--agent', 'opencode'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    const chunks = []
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.on('error', reject)
    child.on('close', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'))
      } catch (err) {
        reject(err)
      }
    })
    signal.addEventListener('abort', () => child.kill(), { once: true })
    child.stdin.on('error', () => {})
    child.stdin.end(JSON.stringify(input))
  })
}
`
}

/** Whether Switchboard's plugin is at `file` (a file that is not there is none). */
export function hasOpencodePlugin(file: string): boolean {
  return existsSync(file) && isOurs(file)
}

/** Whether the file at this path is Switchboard's plugin (by its first line). */
function isOurs(file: string): boolean {
  return readFileSync(file, 'utf8').startsWith(PLUGIN_MARK)
}

/**
 * Writes the plugin (again: an earlier install's is replaced), owner-only, never through a link, and
 * never over a file of the person's own that has the same name.
 */
export function addOpencodePlugin(file: string, target: PluginTarget): void {
  notALink(file, 'plugin file')
  if (existsSync(file) && !isOurs(file))
    throw invalid(`${file} is not Switchboard’s plugin; move it away and install again`)
  mkdirSync(dirname(file), { recursive: true })
  replacePrivateFile(file, pluginSource(target))
}

/** Takes Switchboard's plugin out, and nothing else: whether there was one. */
export function removeOpencodePlugin(file: string): boolean {
  notALink(file, 'plugin file')
  if (!existsSync(file) || !isOurs(file)) return false
  rmSync(file)
  return true
}
