// What every fake model API the tests start shares: an HTTP server on 127.0.0.1 at a port the kernel
// picks, closed with whatever is still connected to it. Each fake says how it answers (`handle`).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

export abstract class LocalServer {
  port = 0
  private server: Server | null = null

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    const address = this.server.address()
    this.port = typeof address === 'object' && address ? address.port : 0
    return this
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>
}
