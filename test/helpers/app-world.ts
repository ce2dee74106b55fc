// The hub's one HTTP app in the test's own process, as `switchboard serve` assembles it but with no
// server: a SQLite store in a temp folder, driven sessions that are the scripted fake CLI
// (fake-claude.ts), and requests handed to app.fetch with the Node request and response the routes
// read (a few write to Node's response directly: the webhook, the sender stream, /messages).
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pino } from 'pino'
import { apiClient, type Call } from '../../src/core/api/client.js'
import { type HubConfig, loadConfig } from '../../src/core/config.js'
import { type Assembled, assemble } from '../../src/hub/assemble.js'
import { createApp } from '../../src/hub/http/app.js'
import type { HubBindings } from '../../src/hub/http/env.js'
import { ANSWERED_ON_NODE } from '../../src/hub/http/node-io.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import { type FakeClaude, type FakeScript, fakeClaude } from './fake-claude.js'

export const ADMIN_TOKEN = 'sba_app-world-admin-token'
export const PORT = 7420
/** What a browser on this machine sends as its Host. */
export const OWN_HOST = `127.0.0.1:${PORT}`

export interface Answer {
  status: number
  headers: Headers
  text: string
  json: Record<string, unknown>
  /** Hangs up a stream the route keeps open (what a client closing it does). */
  hangUp(): void
}

export interface RequestOptions {
  headers?: Record<string, string>
  /** A Buffer goes as it is (a file's bytes); an object as JSON. */
  body?: string | Buffer | object
  /** Over the home's Unix socket (no Host/Origin guard); false: over TCP. */
  local?: boolean
}

export interface AppWorld {
  dir: string
  parts: Assembled
  fake: FakeClaude
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>
  /** The typed client of the contract, over this app, with `token` as its bearer (none: no header). */
  client(token?: string): Call
  /** A browser signed in the way the dashboard is: a link from the admin token, spent for a key. */
  signIn(): Promise<{ key: string; name: string }>
  close(): Promise<void>
}

/** Node's response as the routes that write to it use it: what they write, kept. */
class KeptResponse extends EventEmitter {
  statusCode = 200
  headers = new Headers()
  written: string[] = []
  writableEnded = false
  headersSent = false

  writeHead(status: number, headers: Record<string, string | number> = {}): this {
    this.statusCode = status
    for (const [name, value] of Object.entries(headers)) this.headers.set(name, String(value))
    this.headersSent = true
    return this
  }
  setHeader(name: string, value: string | number): this {
    this.headers.set(name, String(value))
    return this
  }
  write(chunk: string | Buffer): boolean {
    this.headersSent = true
    this.written.push(String(chunk))
    this.emit('wrote')
    return true
  }
  end(chunk?: string | Buffer): this {
    if (this.writableEnded) return this
    if (chunk !== undefined) this.written.push(String(chunk))
    this.headersSent = true
    this.writableEnded = true
    this.emit('finish')
    this.emit('close')
    return this
  }
  destroy(): this {
    return this.end()
  }
}

function answerOf(status: number, headers: Headers, text: string, hangUp: () => void): Answer {
  let json: Record<string, unknown> = {}
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {}
  } catch {
    // not JSON (an event stream, the page): `text` says what came
  }
  return { status, headers, text, json, hangUp }
}

export function appWorld(script: FakeScript = {}, settings: Partial<HubConfig> = {}): AppWorld {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-app-'))
  const store = openSqliteStore(join(dir, 'switchboard.db'))
  const fake = fakeClaude(dir, script)
  const config: HubConfig = {
    ...loadConfig({ home: dir }),
    host: '127.0.0.1',
    port: PORT,
    adminToken: ADMIN_TOKEN,
    // The fake's script reaches its CLIs as any name config.json adds would.
    sessionEnv: ['FAKE_CLAUDE_SCRIPT'],
    ...settings,
  }
  // The sessions' environment is taken from the process's once, here: the fake's, and then put back.
  const saved = { ...process.env }
  Object.assign(process.env, {
    CLAUDE_CODE_PATH: fake.env.CLAUDE_CODE_PATH,
    FAKE_CLAUDE_SCRIPT: fake.env.FAKE_CLAUDE_SCRIPT,
  })
  let parts: Assembled
  try {
    parts = assemble(config, store, pino({ level: 'silent' }), null)
  } finally {
    for (const name of ['CLAUDE_CODE_PATH', 'FAKE_CLAUDE_SCRIPT'])
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
  }
  parts.listening(PORT)
  const app = createApp(parts)

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string' || Buffer.isBuffer(options.body)
          ? options.body
          : JSON.stringify(options.body)
    const headers: Record<string, string> = { host: OWN_HOST }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
    if (typeof options.body === 'object' && !Buffer.isBuffer(options.body))
      headers['content-type'] ??= 'application/json'
    // As Node's parser gives it: a body comes with its length (the routes read it from the request).
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
    const incoming = Object.assign(Readable.from(body === undefined ? [] : [Buffer.from(body)]), {
      method,
      url: path,
      headers,
      socket: { remoteAddress: '127.0.0.1', remotePort: 50_000, localAddress: '127.0.0.1', localPort: PORT },
    }) as unknown as IncomingMessage
    const outgoing = new KeptResponse()
    const env: HubBindings = {
      incoming,
      outgoing: outgoing as unknown as ServerResponse,
      local: options.local ?? true,
    }
    const { host: _host, ...sent } = headers
    const answer = await app.fetch(
      new Request(`http://${OWN_HOST}${path}`, { method, headers: sent, body }),
      env,
    )
    // The route answered on Node's response itself.
    if (answer === ANSWERED_ON_NODE)
      return answerOf(outgoing.statusCode, outgoing.headers, outgoing.written.join(''), () => outgoing.end())
    return answerOf(answer.status, answer.headers, await answer.text(), () => {
      void answer.body?.cancel()
    })
  }

  function client(token?: string): Call {
    return apiClient(
      async (req) => {
        const body = req.body instanceof Blob ? Buffer.from(await req.body.arrayBuffer()) : req.body
        const a = await request(req.method, req.path, { headers: req.headers, body })
        return { status: a.status, body: a.text }
      },
      (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
    )
  }

  return {
    dir,
    parts,
    fake,
    request,
    client,
    async signIn() {
      const link = await client(ADMIN_TOKEN)('signinLink')
      const token = new URL(link.url).searchParams.get('token') ?? ''
      const { key, name } = await client()('signin', { body: { token } })
      return { key, name }
    },
    async close() {
      await parts.sessions.stopAll()
      parts.streams.closeAll()
      parts.wss.close()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
