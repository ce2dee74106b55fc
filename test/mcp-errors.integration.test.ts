// What a client gets back when its tools/call is wrong, from both of our MCP servers, each spawned as
// its client spawns it (the MCP SDK's Client over stdio): a tool the server does not have, and params
// without a name or with arguments that are no object, are protocol errors as the MCP specification
// has them (-32602 Invalid params, in one line that says what to send instead); a tool that ran and
// failed, or whose arguments it refused, answers with an isError result the model can read.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ChannelClient } from './helpers/channel-client.js'
import { CLI } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()

/** The protocol error a request was answered with: its code, and the line the server wrote. */
async function refusal(
  request: Promise<unknown>,
): Promise<{ code: number; line: string } | { answered: unknown }> {
  try {
    return { answered: await request }
  } catch (err) {
    if (!(err instanceof McpError)) throw err
    // The SDK's client puts "MCP error <code>: " before the server's message.
    return { code: err.code, line: err.message.replace(/^MCP error -?\d+: /, '') }
  }
}

/** A tools/call with params as given, past the SDK client's own typing: what a broken client sends. */
function rawCall(client: Client, params: unknown) {
  return client.request({ method: 'tools/call', params } as never, z.object({}).loose())
}

/** The one-line text of a tool's result, and whether it is an error. */
function answer(result: Awaited<ReturnType<Client['callTool']>>) {
  return { isError: result.isError === true, text: (result.content as { text: string }[])[0]?.text ?? '' }
}

/** Every refusal of a malformed or unknown call, as the client sees it. */
async function malformedCalls(client: Client, unknown: string) {
  return {
    unknown: await refusal(client.callTool({ name: unknown, arguments: {} })),
    inherited: await refusal(client.callTool({ name: 'toString', arguments: {} })),
    noName: await refusal(rawCall(client, { arguments: {} })),
    nameNotString: await refusal(rawCall(client, { name: 42, arguments: {} })),
    noParams: await refusal(rawCall(client, undefined)),
    argumentsNotObject: await refusal(rawCall(client, { name: 'inbox', arguments: 'limit=5' })),
    argumentsArray: await refusal(rawCall(client, { name: 'inbox', arguments: [5] })),
  }
}

const NAME_NEEDED = { code: ErrorCode.InvalidParams, line: 'tools/call needs params.name (a string)' }
const OBJECT_NEEDED = {
  code: ErrorCode.InvalidParams,
  line: 'tools/call needs params.arguments to be an object (the tool’s arguments by name)',
}

describe('switchboard channel', () => {
  it('refuses an unknown tool and a malformed call as invalid params, in one line', async () => {
    const channel = await ChannelClient.start(world.home)
    world.opened.push(channel)
    const refused = await malformedCalls(channel.client, 'fly')
    expect(refused).toEqual({
      unknown: {
        code: ErrorCode.InvalidParams,
        line: expect.stringMatching(/^unknown tool "fly"; the tools are .*\breply\b.*\binbox\b/),
      },
      inherited: {
        code: ErrorCode.InvalidParams,
        line: expect.stringMatching(/^unknown tool "toString"; the tools are /),
      },
      noName: NAME_NEEDED,
      nameNotString: NAME_NEEDED,
      noParams: NAME_NEEDED,
      argumentsNotObject: OBJECT_NEEDED,
      argumentsArray: OBJECT_NEEDED,
    })
    for (const r of Object.values(refused)) expect(JSON.stringify(r)).not.toContain('\\n')

    // A tool that ran and failed, and arguments the tool refused, are results the model reads.
    expect(answer(await channel.callTool('reply', { chat_id: 'chat_nope', text: 'x' }))).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^unknown chat_id "chat_nope": /),
    })
    expect(answer(await channel.callTool('inbox', { limit: 0 }))).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^inbox: limit: /),
    })
    // And it still serves its tools.
    expect(answer(await channel.callTool('inbox', {}))).toEqual({ isError: false, text: '[]' })
  })
})

describe('switchboard mcp', () => {
  it('refuses an unknown tool and a malformed call as invalid params, in one line', async () => {
    const client = new Client({ name: 'agent', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp'],
        env: world.home.env as Record<string, string>,
        stderr: 'ignore',
      }),
    )
    world.opened.push(client)
    const refused = await malformedCalls(client, 'claude_fly')
    expect(refused).toEqual({
      unknown: {
        code: ErrorCode.InvalidParams,
        line: expect.stringMatching(
          /^unknown tool "claude_fly"; the tools are .*\bclaude_create_session\b.*\bswitchboard_answer\b/,
        ),
      },
      inherited: {
        code: ErrorCode.InvalidParams,
        line: expect.stringMatching(/^unknown tool "toString"; the tools are /),
      },
      noName: NAME_NEEDED,
      nameNotString: NAME_NEEDED,
      noParams: NAME_NEEDED,
      argumentsNotObject: OBJECT_NEEDED,
      argumentsArray: OBJECT_NEEDED,
    })
    for (const r of Object.values(refused)) expect(JSON.stringify(r)).not.toContain('\\n')

    const noFolder = await client.callTool({
      name: 'claude_create_session',
      arguments: { prompt: 'hi', workingDirectory: '/no/such/dir' },
    })
    expect(answer(noFolder)).toEqual({
      isError: true,
      text: 'claude_create_session: workingDirectory: no such folder: /no/such/dir',
    })
    const badArgument = await client.callTool({ name: 'claude_list_sessions', arguments: { limit: 0 } })
    expect(answer(badArgument)).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^claude_list_sessions: limit: /),
    })
  })
})
