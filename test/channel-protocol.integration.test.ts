// Which MCP protocol revision `switchboard channel` negotiates, as Claude Code meets it: Claude Code
// (2.1.330 on) registers no channel on a connection that negotiates the stateless revision
// (2026-07-28), and says so only in a toast (PROTOCOLS.md §7). Whatever revisions the MCP SDK learns,
// a client offering that revision, or the one Claude Code offers today, must get a revision with a
// channel delivery path, and the channel's capability with it. The clients are the SDK's own.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { expect, it } from 'vitest'
import { CLI } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()
const STATELESS = '2026-07-28'

function channelTransport(): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'channel'],
    env: world.home.env as Record<string, string>,
    stderr: 'ignore',
  })
}

/**
 * The SDK's Client, named as Claude Code names itself, offering `version` in its initialize request
 * (the SDK's Client offers its own newest); resolves with the revision the channel answered and the
 * capabilities it declared.
 */
async function negotiate(version: string) {
  const transport = channelTransport()
  const send = transport.send.bind(transport)
  transport.send = (message) => {
    const m = message as { method?: string; params?: Record<string, unknown> }
    const offered =
      m.method === 'initialize' ? { ...m, params: { ...m.params, protocolVersion: version } } : m
    return send(offered as JSONRPCMessage)
  }
  // The SDK's Client hands a transport that takes it the revision it negotiated.
  let negotiated: string | undefined
  Object.assign(transport, { setProtocolVersion: (v: string) => (negotiated = v) })
  const client = new Client({ name: 'claude-code', version: '0.0.0' })
  await client.connect(transport)
  world.opened.push(client)
  return { negotiated, capabilities: client.getServerCapabilities() }
}

it('negotiates a revision with a channel delivery path whatever the client offers', async () => {
  // What Claude Code 2.1.330 offers (PROTOCOLS.md §2), and the stateless revision a later one may.
  for (const offered of ['2025-11-25', STATELESS]) {
    const { negotiated, capabilities } = await negotiate(offered)
    expect({ offered, negotiated }).toEqual({ offered, negotiated: '2025-11-25' })
    expect(capabilities?.experimental?.['claude/channel'], offered).toEqual({})
  }
  // An older revision the channel speaks is answered as offered.
  expect((await negotiate('2025-06-18')).negotiated).toBe('2025-06-18')
})

it('answers the stateless revision’s server/discover as a method it does not have, so the client goes on to initialize', async () => {
  const transport = channelTransport()
  world.opened.push(transport)
  const answers: JSONRPCMessage[] = []
  transport.onmessage = (m) => answers.push(m)
  await transport.start()
  // Claude Code asks this before it initializes (PROTOCOLS.md §2).
  await transport.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': STATELESS,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  })
  await expect.poll(() => answers.length, { timeout: 15_000 }).toBe(1)
  expect(answers[0]).toMatchObject({ id: 1, error: { code: -32601 } })
})
