// Rung 4, MCP elicitation, for decisions: an agent drives a session through `switchboard mcp` with a
// client that declares elicitation (the SDK's Client). Its model asks for Bash each round; timed from
// the fake API handing out the tool call to the form at the client (the decision put to the person),
// and from the form's answer to the tool's result reaching the model (the answer carried out).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { latestTurn, toolResults } from '../../test/fakes/anthropic.js'
import { drivingEnv } from '../../test/helpers/e2e.js'
import { CLI, waitFor } from '../../test/helpers/home.js'
import { figures, type Rung } from './rung.js'
import { withWorld } from './world.js'

export const elicitationRung: Rung = {
  name: 'elicitation',
  promise: 'a decision put to the person as a form; the answer carried out once',
  measure: (n, warmup) =>
    withWorld({}, async (world) => {
      let askedAt = 0
      let answeredAt = 0
      let resultAt = 0
      let round = 0
      world.fake.respond((r) => {
        if (toolResults(r).length) {
          resultAt = Date.now()
          return { text: 'done' }
        }
        if (latestTurn(r).includes('make the file')) {
          askedAt = Date.now()
          // A command that writes: Claude Code asks for it (a read-only one it may run unasked).
          return { tool: 'Bash', input: { command: `touch made-${round}`, description: 'make it' } }
        }
        return { text: 'plain answer' }
      })
      const shown: (number | null)[] = []
      const carried: (number | null)[] = []
      const client = new Client(
        { name: 'agent', version: '0' },
        { capabilities: { elicitation: { form: {} } } },
      )
      client.setRequestHandler(ElicitRequestSchema, async () => {
        shown.push(Date.now() - askedAt)
        answeredAt = Date.now()
        return { action: 'accept', content: { approve: true } }
      })
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'mcp'],
          env: drivingEnv(world),
          cwd: world.claude.cwd,
          stderr: 'ignore',
        }),
      )
      world.closers.push(() => client.close())
      for (let i = 0; i < warmup + n; i++) {
        resultAt = 0
        round = i
        await client.callTool({
          name: 'claude_create_session',
          arguments: { prompt: 'make the file', workingDirectory: world.claude.cwd, waitSeconds: 30 },
        })
        await waitFor(() => resultAt > 0, 30_000, `round ${i}'s tool result at the model`)
        carried.push(resultAt - answeredAt)
      }
      return {
        written: figures(shown, warmup),
        inContext: figures(carried, warmup),
        note: 'written: the tool call handed out → the form at the client; in_context: accept → the result at the model',
      }
    }),
}
