// What every route of the one app has at hand: Node's own request and response (the webhook and the
// sender streams write to them directly, bench:router; every body is read from the request), how the
// request came (the home's socket or TCP; an upgrade), its body and how much of it may be read, and
// who is asking once the route's guard has looked.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Sender } from '../../store/store.js'

export interface HubBindings {
  incoming: IncomingMessage
  outgoing: ServerResponse
  /** Came over the home's Unix socket (reachable only through the home's permissions). */
  local?: boolean
  /** A WebSocket upgrade: the socket to hand over, and what came after the headers. */
  upgrade?: { socket: Duplex; head: Buffer }
  /** The most bytes this request's body may have: its route's, from the contract (define.ts). */
  bodyLimit?: number
  /** The body, once someone has asked for it (node-io.ts requestBody). */
  body?: Promise<Buffer>
}

/** The app as Node's listeners (node.ts) and the in-process tests call it. */
export interface HubApp {
  fetch(request: Request, env: HubBindings): Response | Promise<Response>
}

export type HubEnv = { Bindings: HubBindings }

/** Who sent a request (principal.ts). */
export type Principal =
  /**
   * `presented`: a token came, but nobody holds it. `local`: no token, down the home's socket, which
   * only the home's owner reaches: Claude Code's hooks, which may call the hook route only.
   */
  | { kind: 'nobody'; presented?: boolean; local?: boolean }
  /**
   * `as`: what the local process calls itself (`cli`, `mcp`, `hook`: the X-Switchboard-Client header),
   * the name its answers are recorded under; `passedOnBy`: the hub that authenticated the client and
   * passed the request on.
   */
  | { kind: 'admin'; as: string; passedOnBy?: string }
  | { kind: 'sender'; sender: Sender }
  | { kind: 'browser'; sender: Sender; passedOnBy?: string }
