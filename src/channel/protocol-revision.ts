// The MCP protocol revisions the channel speaks, stated here rather than taken from the MCP SDK.
// Claude Code (2.1.330 on) registers no channel on a connection that negotiates the stateless
// revision, 2026-07-28: the person sees a toast, and no event ever reaches Claude (PROTOCOLS.md §7).
// The SDK's server answers initialize with the revision the client offers when it speaks it, and with
// its own newest otherwise; an SDK that learned the stateless revision would hand it to a client that
// offers it, and would answer server/discover, with which a client starts that revision. So the
// channel answers initialize from its own list, and server/discover as a method it does not have:
// Claude Code then initializes (seen with 2.1.330, whose server/discover an SDK server never answered).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { METHOD_NOT_FOUND } from '../core/tool-call.js'

/**
 * Newest first: the revisions the channel negotiated before it listed them (the SDK 1.32's), each
 * with a channel delivery path in Claude Code. Add one only once Claude Code delivers channel
 * events over it.
 */
export const CHANNEL_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/**
 * The revision the channel answers an offer with: the offer when the channel speaks it, else its
 * newest (the specification's rule: the client then decides whether it goes on with that one).
 */
export function channelRevision(offered: unknown): string {
  return CHANNEL_REVISIONS.find((r) => r === offered) ?? (CHANNEL_REVISIONS[0] as string)
}

function isRequest(message: JSONRPCMessage, method: string): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.method === method
}

/**
 * The channel's transport, speaking only the channel's revisions: a client's initialize reaches the
 * SDK's server offering the revision the channel answers with (which the server, speaking it, answers
 * as offered), and server/discover is refused before the server sees it.
 */
export function channelRevisionsOnly<T extends Transport>(transport: T): T {
  const start = transport.start.bind(transport)
  transport.start = () => {
    // A server installs its handler before it starts the transport (the Transport contract).
    const deliver = transport.onmessage
    transport.onmessage = (message, extra) => {
      if (isRequest(message, 'server/discover')) {
        const error = { code: METHOD_NOT_FOUND, message: 'Method not found' }
        void transport.send({ jsonrpc: '2.0', id: message.id, error }).catch(() => {})
        return
      }
      if (isRequest(message, 'initialize')) {
        const protocolVersion = channelRevision(message.params?.protocolVersion)
        deliver?.({ ...message, params: { ...message.params, protocolVersion } }, extra)
        return
      }
      deliver?.(message, extra)
    }
    return start()
  }
  return transport
}
