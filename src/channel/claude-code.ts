// The channel's MCP server, and what the channel says to Claude Code over it (PROTOCOLS.md §2): an
// event as a channel notification, a line in the server's log, an operator's verdict on a relayed
// prompt, and a ping that shows it has read its pipe.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import * as z from 'zod'
import { defusedContent } from '../core/channel-content.js'
import { eventMeta, type StoredEvent } from '../core/event.js'
import { type Behavior, permissionRequestSchema } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import { VERSION } from '../core/version.js'
import type { ClaudeSide } from './delivery.js'
import { channelInstructions } from './instructions.js'

export const SERVER_NAME = 'switchboard'

/**
 * The server Claude Code talks to. The relay is declared from the start (the hub may not have
 * answered yet): only an operator's answer, or one at the terminal, ever settles a relayed prompt.
 */
export function channelServer(): Server {
  return new Server(
    { name: SERVER_NAME, version: VERSION },
    {
      capabilities: {
        experimental: { 'claude/channel': {}, 'claude/channel/permission': {} },
        tools: {},
        logging: {},
      },
      instructions: channelInstructions(SERVER_NAME),
    },
  )
}

/** A prompt Claude Code asks the channel to relay to operators. */
export const PermissionRequestNotification = z.object({
  method: z.literal('notifications/claude/channel/permission_request'),
  params: permissionRequestSchema,
})

export class ClaudeCode implements ClaudeSide {
  constructor(
    private readonly mcp: Server,
    /**
     * Named in every tag's attributes: two servers of one session may both be handed an event, and
     * each confirms only its own tag (claude/transcript-marks.ts).
     */
    private readonly subscriber: string,
    private readonly log: Logger,
  ) {}

  async show(event: StoredEvent): Promise<void> {
    await this.mcp.notification({
      method: 'notifications/claude/channel',
      params: {
        content: defusedContent(event.content),
        meta: { ...eventMeta(event), subscriber: this.subscriber },
      },
    })
  }

  async notice(text: string): Promise<void> {
    await this.mcp.sendLoggingMessage({ level: 'notice', logger: 'switchboard', data: text })
  }

  async verdict(requestId: string, behavior: Behavior): Promise<void> {
    await this.mcp.notification({
      method: 'notifications/claude/channel/permission',
      params: { request_id: requestId, behavior },
    })
  }

  /** Claude Code reads its pipe in order: a ping it answers was read after every line before it. */
  async read(): Promise<void> {
    try {
      await this.mcp.ping()
    } catch (err) {
      this.log.debug({ err }, 'Claude Code answered no ping: the deadline runs from the write')
      throw err
    }
  }
}
