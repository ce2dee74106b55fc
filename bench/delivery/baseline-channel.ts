// The baseline: a channel built the way the official channels walkthrough builds one — an HTTP
// listener inside the MCP server, events held in memory, no store, no hub.
import { createServer } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

const port = Number(process.argv[2])
const mcp = new Server(
  { name: 'webhook', version: '0.0.1' },
  { capabilities: { experimental: { 'claude/channel': {} } }, instructions: 'Events arrive as <channel>.' },
)
await mcp.connect(new StdioServerTransport())

let nextId = 1
createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8')
    await mcp.notification({
      method: 'notifications/claude/channel',
      params: {
        content: body,
        meta: { chat_id: String(nextId++), path: req.url ?? '/', method: req.method ?? '' },
      },
    })
    res.end('ok')
  })
}).listen(port, '127.0.0.1')
