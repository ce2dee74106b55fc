// The web chat's messages, in memory for as long as the tab lives (so a visit to another page keeps
// them): the messages this page sent, shown at once and then marked sent or failed, and Claude's
// replies from /api/chat/stream, kept by id so a replay after a reconnect shows none twice. Only the
// last MAX_MESSAGES are kept. The hub keeps the replies, not what the page sent, so a reload shows
// only replies.
import type { ChatReply } from '../../../src/core/api/rows.ts'
import { call, errorText } from '../api/client.ts'

export const MAX_MESSAGES = 500

export interface SentMessage {
  kind: 'sent'
  key: string
  text: string
  /** The session it was written to; null for all that take chat. */
  to: string | null
  at: number
  status: 'sending' | 'sent' | 'failed'
  /** How many sessions took it (once sent); 0: kept for the next one. */
  sessions: number | null
  error: string | null
}

export interface ReplyMessage {
  kind: 'reply'
  key: string
  id: number
  text: string
  from: string
  at: number
}

export type ChatMessage = SentMessage | ReplyMessage

type Listener = () => void

let messages: readonly ChatMessage[] = []
/** Replies that arrived since the last render; added together once per animation frame. */
let pending: ReplyMessage[] = []
let frame = 0
/** The ids of the replies kept, and the highest id of one dropped for the limit. */
const keptIds = new Set<number>()
let droppedBelow = 0
const listeners = new Set<Listener>()

function commit(next: ChatMessage[]) {
  if (next.length > MAX_MESSAGES) {
    for (const m of next.splice(0, next.length - MAX_MESSAGES)) {
      if (m.kind !== 'reply') continue
      keptIds.delete(m.id)
      droppedBelow = Math.max(droppedBelow, m.id)
    }
  }
  messages = next
  for (const listener of listeners) listener()
}

function flush() {
  if (frame) cancelAnimationFrame(frame)
  frame = 0
  if (pending.length === 0) return
  const batch = pending
  pending = []
  commit([...messages, ...batch])
}

export const chatStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  snapshot(): readonly ChatMessage[] {
    return messages
  },
}

/** A reply from the stream; false when it was already shown (or dropped for the limit). */
export function addReply(id: number, reply: ChatReply): boolean {
  if (!Number.isFinite(id) || id <= droppedBelow || keptIds.has(id)) return false
  keptIds.add(id)
  pending.push({ kind: 'reply', key: `r${id}`, id, text: reply.text, from: reply.from, at: reply.at })
  if (frame === 0) frame = requestAnimationFrame(flush)
  return true
}

function update(key: string, change: Partial<SentMessage>) {
  flush()
  commit(messages.map((m) => (m.kind === 'sent' && m.key === key ? { ...m, ...change } : m)))
}

let counter = 0
function newKey(): string {
  counter += 1
  return `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}-${counter}`
}

async function deliver(message: SentMessage) {
  update(message.key, { status: 'sending', error: null })
  try {
    const sent = await call('chat', {
      body: message.to === null ? { text: message.text } : { text: message.text, to: message.to },
      headers: { 'Idempotency-Key': message.key },
    })
    update(message.key, { status: 'sent', sessions: sent.sessions })
  } catch (err) {
    update(message.key, { status: 'failed', error: errorText(err) })
  }
}

/** Shows the message at once, then writes it to the hub. */
export function sendChat(text: string, to: string | null): Promise<void> {
  const message: SentMessage = {
    kind: 'sent',
    key: newKey(),
    text,
    to,
    at: Date.now(),
    status: 'sending',
    sessions: null,
    error: null,
  }
  flush()
  commit([...messages, message])
  return deliver(message)
}

/** Tries a failed message again, with the same key so the hub never takes it twice. */
export function resendChat(key: string): Promise<void> {
  const message = messages.find((m): m is SentMessage => m.kind === 'sent' && m.key === key)
  if (message?.status !== 'failed') return Promise.resolve()
  return deliver(message)
}
