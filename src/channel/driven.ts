// `switchboard channel` inside a session the hub drives (the plugin installed user-wide starts it in
// every session): an MCP server with nothing to offer, that never reaches the hub. Claude Code sees
// the server it was told to start; the hub sees no phantom subscriber.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Logger } from '../core/log.js'
import { VERSION } from '../core/version.js'

export async function runDrivenChannel(name: string, log: Logger): Promise<void> {
  const mcp = new Server({ name, version: VERSION }, { capabilities: {} })
  const closed = new Promise<void>((resolve) => {
    mcp.onclose = () => resolve()
    process.stdin.on('end', () => resolve())
  })
  await mcp.connect(new StdioServerTransport())
  log.info('in a session the hub drives: not subscribing')
  await closed
}
