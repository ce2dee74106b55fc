// One channel session of the soak: `switchboard channel` spawned as Claude Code spawns it, driven by
// the MCP SDK's Client, which hands every notification it reads to the ledger as it arrives. Nothing
// is kept here, so an hour's notifications cost this process no memory of their own.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ChannelNotification, PermissionVerdict } from '../../test/helpers/channel-client.js'
import { CLI, waitFor } from '../../test/helpers/home.js'

export interface ChannelHandlers {
  /** A channel notification: the event's id (meta.event_id) and when the client read it. */
  onEvent(channel: number, eventId: string, at: number): void
  /** A verdict on a prompt this channel relayed. */
  onVerdict(channel: number, requestId: string, at: number): void
}

/** The last of a channel's log kept, to say why it did not start. */
const LOG_TAIL = 4_000

export class SoakChannel {
  private log = ''

  private constructor(
    readonly index: number,
    readonly name: string,
    readonly topics: string[],
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  static async start(
    index: number,
    topics: string[],
    env: Record<string, string>,
    handlers: ChannelHandlers,
    now: () => number,
  ): Promise<SoakChannel> {
    const name = `s${String(index).padStart(3, '0')}`
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'channel', '--name', name, '--topics', topics.join(',')],
      env,
      stderr: 'pipe',
    })
    // Named as Claude Code names itself, so the channel takes the channel-notification rung.
    const client = new Client({ name: 'claude-code', version: '0.0.0' })
    const channel = new SoakChannel(index, name, topics, client, transport)
    transport.stderr?.on('data', (chunk) => {
      channel.log = (channel.log + String(chunk)).slice(-LOG_TAIL)
      if (channel.log.includes('"channel ready"')) channel.ready = true
    })
    client.setNotificationHandler(ChannelNotification, ({ params }) => {
      handlers.onEvent(index, params.meta?.event_id ?? '?', now())
    })
    client.setNotificationHandler(PermissionVerdict, ({ params }) => {
      handlers.onVerdict(index, params.request_id, now())
    })
    await client.connect(transport)
    await waitFor(() => channel.ready, 60_000, `channel ${name} to reach its hub\n${channel.log}`)
    return channel
  }

  private ready = false

  get pid(): number | null {
    return this.transport.pid
  }

  /** Claude Code asking the channel to relay a permission prompt to operators. */
  async raise(requestId: string): Promise<void> {
    await this.client.notification({
      method: 'notifications/claude/channel/permission_request',
      params: {
        request_id: requestId,
        tool_name: 'Bash',
        description: `soak prompt ${requestId} of ${this.name}`,
        input_preview: JSON.stringify({ command: `echo ${requestId}` }),
      },
    })
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {})
  }
}
