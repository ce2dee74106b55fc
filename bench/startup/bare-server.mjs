// bench/startup's yardstick: an MCP stdio server with nothing but the SDK's Server and transport,
// plain JavaScript so that node starts it exactly as it starts dist/cli/main.js.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

const server = new Server({ name: 'bare', version: '0.0.0' }, { capabilities: {} })
await server.connect(new StdioServerTransport())
