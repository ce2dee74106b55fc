// The hub protocol: what channel processes and the hub say to each other over WebSocket.
// Defined once here and validated on both ends.
import * as z from 'zod'
import { eventSchema } from './event.js'
import { receiptStageSchema } from './receipts.js'
import { subscriberNameSchema } from './subscriber-name-schema.js'

export { subscriberNameSchema }

export const HUB_PATH = '/hub'

/**
 * Subscribers that are the hub's own (driven sessions, outbound webhooks, GitHub comments, routines'
 * queues of events), not a channel session: one place says which, for every list of channels.
 */
export function isHubOwnSubscriber(name: string): boolean {
  return /^(session|webhook|github|routine):/.test(name)
}

export const topicSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:/*-]+$/, 'topic may hold letters, digits and . _ : / - * only')

/** Claude Code's permission request, as the channel receives it (PROTOCOLS.md §2). */
export const permissionRequestSchema = z.object({
  request_id: z.string().regex(/^[a-km-z]{5}$/, 'request_id is five letters a-z without l'),
  tool_name: z.string(),
  description: z.string(),
  input_preview: z.string(),
})
export type PermissionRequest = z.infer<typeof permissionRequestSchema>

export const behaviorSchema = z.enum(['allow', 'deny'])
export type Behavior = z.infer<typeof behaviorSchema>

export const roomSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/, 'room names hold letters, digits and . _ - only')

/** What a session asks of its peers (tools of `switchboard channel`, `switchboard send`). */
export const peerRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('list') }),
  z.object({ action: z.literal('send'), to: subscriberNameSchema, text: z.string().min(1) }),
  z.object({ action: z.literal('broadcast'), text: z.string().min(1) }),
  z.object({ action: z.literal('join'), room: roomSchema }),
  z.object({ action: z.literal('leave'), room: roomSchema }),
  z.object({ action: z.literal('send_room'), room: roomSchema, text: z.string().min(1) }),
])
export type PeerRequest = z.infer<typeof peerRequestSchema>

/** What Claude may do in a chat besides replying (tools of `switchboard channel`, bridged chats only). */
export const chatActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('react'),
    chat_id: z.string().min(1),
    message_id: z.string().min(1),
    emoji: z.string().min(1).max(32),
  }),
  z.object({
    action: z.literal('edit'),
    chat_id: z.string().min(1),
    message_id: z.string().min(1),
    text: z.string().min(1),
  }),
  z.object({ action: z.literal('download'), chat_id: z.string().min(1), file_id: z.string().min(1) }),
  z.object({
    action: z.literal('fetch'),
    chat_id: z.string().min(1),
    limit: z.number().int().min(1).max(100).default(20),
  }),
])
export type ChatAction = z.infer<typeof chatActionSchema>

// --- channel → hub ---------------------------------------------------------
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    subscriber: subscriberNameSchema,
    /** `["*"]` for everything. */
    topics: z.array(topicSchema).min(1),
    /**
     * false on a channel's first hello: a taken name gets a free variant (`name-2`).
     * true when the same channel comes back: it takes its name over from a stale connection.
     */
    reconnect: z.boolean().default(false),
    /**
     * How this channel hands events to its session (src/channel/rung.ts); absent until its MCP client
     * has initialized it (the rung message says it then).
     */
    rung: z.enum(['channel', 'message']).optional(),
    /** Other names this peer answers to. */
    aliases: z.array(subscriberNameSchema).default([]),
    /** The session's working folder: files its replies attach may come from there. */
    folder: z.string().startsWith('/').max(4096).optional(),
    /**
     * The Claude Code session the channel serves (CLAUDE_CODE_SESSION_ID, given to MCP servers): its
     * hooks then share the channel's name, and a dialog relayed by both is one prompt of that session.
     */
    session: z.string().min(1).max(200).optional(),
  }),
  /** Cumulative: every delivery up to and including this seq was handled. */
  z.object({ type: z.literal('ack'), seq: z.number().int() }),
  z.object({
    type: z.literal('reply'),
    rid: z.number().int(),
    chat_id: z.string().min(1),
    text: z.string().min(1),
    /** A message id in the same chat this reply answers. */
    reply_to: z.string().min(1).optional(),
    /** Absolute paths of files to attach. */
    files: z.array(z.string().min(1)).max(10).optional(),
  }),
  z.object({ type: z.literal('chat_action'), rid: z.number().int(), request: chatActionSchema }),
  z.object({
    type: z.literal('permission_request'),
    rid: z.number().int(),
    request: permissionRequestSchema,
  }),
  z.object({ type: z.literal('peer'), rid: z.number().int(), request: peerRequestSchema }),
  /** The rung, once the channel knows its client (after MCP initialize). */
  z.object({ type: z.literal('rung'), rung: z.enum(['channel', 'message']) }),
  /**
   * How far a delivered event got in the session (issue 23): written to Claude Code, queued there,
   * in Claude's context (its transcript shows it), or unconfirmed after `tries` writes. A channel
   * that sends none (an older one) is taken at its ack: written.
   */
  z.object({
    type: z.literal('receipt'),
    event_id: z.string().min(1).max(200),
    stage: receiptStageSchema,
    tries: z.number().int().min(0).max(1000),
    /** When the transcript shows it (ms), for `queued` and `in_context`; else the hub's clock. */
    at: z.number().int().positive().optional(),
    reason: z.string().max(500).optional(),
  }),
  z.object({ type: z.literal('bye') }),
])
export type ClientMessage = z.input<typeof clientMessageSchema>

// --- hub → channel ---------------------------------------------------------
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('welcome'),
    subscriber: subscriberNameSchema,
    operators: z.number().int(),
    hubVersion: z.string(),
  }),
  z.object({ type: z.literal('deliver'), event: eventSchema }),
  z.object({
    type: z.literal('result'),
    rid: z.number().int(),
    ok: z.boolean(),
    message: z.string(),
  }),
  z.object({ type: z.literal('verdict'), request_id: z.string(), behavior: behaviorSchema }),
  z.object({ type: z.literal('error'), message: z.string() }),
])
export type ServerMessage = z.infer<typeof serverMessageSchema>

/** The docs' text form for a verdict: `yes abcde`, `n abcde` … (PROTOCOLS.md §2). */
export const VERDICT_TEXT = /^\s*(y|yes|n|no)\s+([a-km-z]{5})\s*$/i

export function parseVerdictText(text: string): { behavior: Behavior; code: string } | null {
  const m = VERDICT_TEXT.exec(text)
  if (!m?.[1] || !m[2]) return null
  return { behavior: m[1].toLowerCase().startsWith('y') ? 'allow' : 'deny', code: m[2].toLowerCase() }
}

/** A peer as `peers` lists it. */
export interface PeerInfo {
  name: string
  aliases: string[]
  live: boolean
  rooms: string[]
  pending: number
}

/** What `GET /status` answers (admin token): enough for `switchboard status` and `doctor`. */
export interface HubStatus {
  version: string
  pid: number
  home: string
  host: string
  port: number
  socket: string | null
  logFile: string
  startedAt: number
  /** Subscribers connected now (channels, driven sessions, outbound webhooks), with how many events wait. */
  connected: { name: string; pending: number }[]
  /** Chat platforms bridged into the hub, and how each is doing. */
  bridges: BridgeStatus[]
  operators: number
  openDecisions: number
  liveSessions: number
  /** Where the hub keeps its state; several hubs may share a Postgres database. */
  database: 'sqlite' | 'postgres'
  /** The hubs on this database that are alive, this one among them, with the work each holds. */
  hubs: ClusterHub[]
  /** SHA-256 of the certificate the hub speaks TLS with; null: plain HTTP. */
  fingerprint: string | null
  /** Plain HTTP beyond loopback (`serve --insecure`). */
  inClear: boolean
  /**
   * The settings the hub runs with, as they were resolved when it started (core/settings/show.ts's
   * HUB_SETTINGS, secrets as `show` leaves them): `switchboard config` says where they differ now.
   */
  settings: Record<string, unknown>
}

export interface ClusterHub {
  id: string
  /** Where its HTTP API answers (host:port). */
  address: string | null
  /** SHA-256 of its TLS certificate, as it advertises it; null: plain HTTP. */
  fingerprint: string | null
  self: boolean
  /** The leases of work it holds (bridges, retention), beside the subscribers it delivers to. */
  holds: string[]
  subscribers: number
}

/** A chat bridge as the hub runs it. */
export interface BridgeStatus {
  platform: string
  state: 'starting' | 'connected' | 'reconnecting' | 'error' | 'stopped'
  /** The bot's name on the platform, once connected. */
  bot: string | null
  lastError: string | null
  /** Replies and prompts waiting for the platform to take them. */
  queued: number
}

/** An outbound webhook as `GET /subscriptions` lists it (never its secret). */
export interface OutboundWebhookInfo {
  name: string
  url: string
  topics: string[]
  /** Events waiting to be POSTed. */
  pending: number
  maxAttempts: number
  backoffMs: number
  /** Also told of its events' receipts (in context, unconfirmed). */
  receipts: boolean
  createdAt: number
}
