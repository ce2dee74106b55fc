// The --sdk-url hand-off: a CLI started with it connects back to the hub with the token made for its
// session, and only that connection is handed to the session; it then speaks as on stdin/stdout.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { SdkHandoff } from './sdk-handoff.js'

describe('the hand-off', () => {
  it('has no address to give before the hub listens', () => {
    expect(() => new SdkHandoff().prepare('ses_1')).toThrow(
      expect.objectContaining({ kind: 'unavailable', message: 'the hub is not listening yet' }),
    )
  })

  it('hands a connection over once, for its own session’s token only', () => {
    const handoff = new SdkHandoff()
    handoff.listeningOn('0.0.0.0', 4100)
    const a = handoff.prepare('ses_a')
    const b = handoff.prepare('ses_b')
    expect(a.url).toBe('ws://127.0.0.1:4100/sdk/ses_a')
    expect(handoff.connection('ses_a', b.token)).toBeNull()
    expect(handoff.connection('ses_a', null)).toBeNull()
    expect(handoff.connection('ses_a', a.token)).toBeTypeOf('function')
    expect(handoff.connection('ses_a', a.token)).toBeNull()
    handoff.forget('ses_b')
    expect(handoff.connection('ses_b', b.token)).toBeNull()
  })
})

describe('a session on the --sdk-url transport', () => {
  let world: SessionWorld
  let server: Server
  const refused: string[] = []
  afterEach(async () => {
    await world.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  /** The hub's upgrade handler, as server.ts has it for /sdk/<session>. */
  async function listen(): Promise<void> {
    const wss = new WebSocketServer({ noServer: true })
    server = createServer((_req, res) => res.writeHead(404).end())
    server.on('upgrade', (req, socket, head) => {
      const id = (req.url ?? '').slice('/sdk/'.length)
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? null
      const connect = world.sessions.sdkConnection(id, token)
      if (!connect) {
        refused.push(id)
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
        return
      }
      wss.handleUpgrade(req, socket, head, connect)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    world.sessions.listeningOn('127.0.0.1', (server.address() as AddressInfo).port)
  }

  it('answers over the connection it made, and asks and gets its permission there too', async () => {
    world = sessionWorld({
      turns: [{ steps: [{ ask: { tool: 'Bash', input: { command: 'date' } } }, { say: 'it is late' }] }],
    })
    await listen()
    const { id } = await world.sessions.create(
      'what time is it',
      { cwd: world.dir },
      { setup: { transport: 'sdk-url' } },
    )
    const [pending] = (await world.until(id, (v) => v.status === 'waiting_for_input', 'the prompt'))
      .pendingInputs
    await world.sessions.respond(id, pending?.code ?? '', { behavior: 'allow' }, 'test')
    expect(await world.until(id, (v) => v.status === 'idle', 'the answer')).toMatchObject({
      lastResult: 'it is late',
    })
    const [argv] = world.fake.runs()
    expect(argv?.join(' ')).toContain(
      `--sdk-url ws://127.0.0.1:${(server.address() as AddressInfo).port}/sdk/${id}`,
    )
    expect(refused).toEqual([])
  })
})
