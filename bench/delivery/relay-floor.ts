// The floor for any hub + channel design: an HTTP listener that forwards each body over a WebSocket
// to a second process, an MCP server that writes it as a notification. No store, no checks.
// Run as `relay-floor.ts hub <port>` or `relay-floor.ts channel <port>`.
import { createServer } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import WebSocket, { WebSocketServer } from 'ws'

const [role, portText] = process.argv.slice(2)
const port = Number(portText)

if (role === 'hub') {
  const wss = new WebSocketServer({ noServer: true })
  let channel: WebSocket | null = null
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      channel?.send(Buffer.concat(chunks).toString('utf8'))
      res.end('ok')
    })
  })
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      channel = ws
    }),
  )
  server.listen(port, '127.0.0.1')
} else {
  const mcp = new Server(
    { name: 'relay', version: '0' },
    { capabilities: { experimental: { 'claude/channel': {} } } },
  )
  await mcp.connect(new StdioServerTransport())
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
  ws.on('message', (data) => {
    void mcp.notification({
      method: 'notifications/claude/channel',
      params: { content: String(data), meta: {} },
    })
  })
}
