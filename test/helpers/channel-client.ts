// Plays Claude Code: spawns `switchboard channel` as a stdio child through the MCP SDK's Client
// and records every channel notification it sends.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { z } from 'zod'
import { CLI, type TestHome, waitFor } from './home.js'

/** `notifications/claude/channel` as an MCP client receives it (PROTOCOLS.md §2). */
export const ChannelNotification = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()).optional() }),
})
/** `notifications/claude/channel/permission`: the verdict on a prompt the channel relayed. */
export const PermissionVerdict = z.object({
  method: z.literal('notifications/claude/channel/permission'),
  params: z.object({ request_id: z.string(), behavior: z.enum(['allow', 'deny']) }),
})

export type ChannelEvent = z.infer<typeof ChannelNotification>['params']
export type Verdict = z.infer<typeof PermissionVerdict>['params']

export class ChannelClient {
  readonly events: ChannelEvent[] = []
  readonly verdicts: Verdict[] = []
  readonly stderr: string[] = []
  /**
   * Called as each channel event arrives, before anything else runs; only those after it is set. A
   * channel hands over its backlog as soon as it is ready, before start() resolves: `events` has them.
   */
  onEvent: (event: ChannelEvent) => void = () => {}

  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
  ) {}

  /** `cwd`: the session's working folder, which Claude Code starts its MCP servers in. */
  static async start(
    home: TestHome,
    args: string[] = [],
    env: Record<string, string> = {},
    cwd?: string,
  ): Promise<ChannelClient> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'channel', ...args],
      env: { ...(home.env as Record<string, string>), ...env },
      stderr: 'pipe',
      ...(cwd ? { cwd } : {}),
    })
    // Named as Claude Code names itself, since it stands in for it (see src/channel/rung.ts).
    const client = new Client({ name: 'claude-code', version: '0.0.0' })
    const channel = new ChannelClient(client, transport)
    transport.stderr?.on('data', (chunk) => channel.stderr.push(String(chunk)))
    client.setNotificationHandler(ChannelNotification, ({ params }) => {
      channel.events.push(params)
      channel.onEvent(params)
    })
    client.setNotificationHandler(PermissionVerdict, ({ params }) => {
      channel.verdicts.push(params)
    })
    await client.connect(transport)
    // The channel answers Claude Code before its hub does (it may be starting the hub): a test that
    // posts to the hub next waits for the channel's welcome, as a sender would wait for the hub. A
    // channel in a hub-driven session never reaches the hub.
    const logFile = env.SWITCHBOARD_LOG_FILE ?? home.extraEnv.SWITCHBOARD_LOG_FILE
    const logged = () =>
      channel.stderr.join('') + (logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
    if (!env.SWITCHBOARD_DRIVEN)
      await waitFor(
        () => logged().includes('"channel ready"'),
        20_000,
        `the channel to reach its hub\n${logged()}`,
      )
    return channel
  }

  /**
   * A channel in a folder called `name` of its own: its subscriber is `name`, and every surface names
   * its session `name` alone (a project with no title yet), whatever folder the tests run from.
   */
  static async inFolder(
    home: TestHome,
    name: string,
    env: Record<string, string> = {},
  ): Promise<ChannelClient> {
    const root = mkdtempSync(join(tmpdir(), 'session-folder-'))
    const folder = join(root, name)
    mkdirSync(folder)
    const channel = await ChannelClient.start(home, [], env, folder)
    channel.cleanups.push(() => rmSync(root, { recursive: true, force: true }))
    return channel
  }

  private readonly cleanups: (() => void)[] = []

  get pid(): number | null {
    return this.transport.pid
  }

  capabilities() {
    return this.client.getServerCapabilities()
  }

  async waitForEvents(n: number, ms = 10_000): Promise<ChannelEvent[]> {
    await waitFor(
      () => this.events.length >= n,
      ms,
      `${n} channel events (have ${this.events.length}: ${this.events.map((e) => JSON.stringify(e.content.slice(0, 40))).join(', ')})`,
    )
    return this.events
  }

  async callTool(name: string, args: Record<string, unknown>) {
    return this.client.callTool({ name, arguments: args })
  }

  async sendPermissionRequest(params: {
    request_id: string
    tool_name: string
    description: string
    input_preview: string
  }): Promise<void> {
    await this.client.notification({ method: 'notifications/claude/channel/permission_request', params })
  }

  async close(): Promise<void> {
    await this.client.close()
    for (const cleanup of this.cleanups.splice(0)) cleanup()
  }
}
