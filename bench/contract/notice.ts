// Rung 5, `notifications/message` + `inbox`: an MCP client that is not Claude Code (the SDK's Client,
// named as VS Code would name itself) on `switchboard channel`. The line says an event is waiting;
// nothing says it was read, so the event is handed over when the client calls `inbox`, which this
// client does as soon as the line arrives. No transcript: receipts stop at `written`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { startDrivingHub } from '../../test/helpers/e2e.js'
import { CLI } from '../../test/helpers/home.js'
import { postWebhook, waitForState } from '../../test/helpers/receipts.js'
import { figures, type Rung } from './rung.js'
import { since, withWorld } from './world.js'

export const noticeRung: Rung = {
  name: 'notice',
  promise: 'an actionable line at once; the event pending at the hub until `inbox` returns it (written)',
  measure: (n, warmup) =>
    withWorld({}, async (world) => {
      await startDrivingHub(world)
      const secret = await world.home.addSource('bench')
      const client = new Client({ name: 'visual-studio-code', version: '1.0.0' })
      let lineAt = 0
      let lines = 0
      client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
        lineAt = Date.now()
        lines++
      })
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'channel', '--name', 'bench', '--topics', 'bench'],
          env: world.home.env as Record<string, string>,
          stderr: 'ignore',
        }),
      )
      world.closers.push(() => client.close())
      const line: (number | null)[] = []
      const written: (number | null)[] = []
      for (let i = 0; i < warmup + n; i++) {
        const before = lines
        const startedAt = Date.now()
        const id = await postWebhook(world, 'bench', secret, `contract ${i}`)
        for (const end = Date.now() + 30_000; lines === before; ) {
          if (Date.now() > end) throw new Error(`no line for event ${i} within 30 s`)
          await new Promise((r) => setTimeout(r, 2))
        }
        line.push(lineAt - startedAt)
        await client.callTool({ name: 'inbox', arguments: {} })
        const [receipt] = await waitForState(world, [id], 'written', 30_000)
        written.push(since(startedAt, receipt?.written ?? null))
      }
      return {
        written: figures(written, warmup),
        inContext: null,
        note: `the line itself: p50 ${figures(line, warmup)?.p50} ms; written is when inbox returned it`,
      }
    }),
}
