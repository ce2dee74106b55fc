// What the hub says to people, once: every item it stores in a sender's outbox (a reply, a prompt, an
// outcome, a notice, "Paired", a thread's end) and shows on a phone, a chat, the dashboard or an HTTP
// sender's stream (`GET /events`, where `event:` is the item's kind and `data:` its body). Written with
// these schemas, read back through them (an item that does not parse is logged and skipped by its
// reader, hub/people/sender-outbox.ts), and the OpenAPI document describes the stream from them.
import * as z from 'zod'
import { agentSchema } from './agents.js'
import { TIMEOUT_OUTCOMES } from './decision-timeout.js'
import { describeZod } from './errors.js'
import { NOTICE_KINDS } from './notices.js'

/** Claude's reply to a chat the sender started (Hub.reply). */
export const replyBodySchema = z.object({
  chat_id: z.string(),
  text: z.string(),
  /** The replying session's subscriber name, and what people call it ("api · fix the flaky test"). */
  from: z.string(),
  from_name: z.string().optional(),
  at: z.number(),
  /** The platform's message id this answers (a chat bridge's). */
  reply_to: z.string().optional(),
  /** Files to attach, and the session's folder they may come from. */
  files: z.array(z.string()).optional(),
  folder: z.string().optional(),
})

/** A sender let in (pairing approved, or `access allow`). */
export const pairedBodySchema = z.object({ text: z.string(), operator: z.boolean() })

/**
 * A prompt put to an operator (hub/people/decisions.ts promptBody): the decision's code, whose it is,
 * the call and one line saying what is asked. The fields the hub names are typed; a driven session's
 * decision request is passed on with it as it was stored (the asker's own, e.g. a terminal's `cwd`).
 */
export const promptBodySchema = z.looseObject({
  /** The decision's code: what `yes <code>` answers. */
  id: z.string(),
  /** The decision's id (a driven session's prompts). */
  decision: z.string().optional(),
  /** The decision's owner; a prompt from before owners were said names only its session. */
  owner: z.string().optional(),
  session: z.string(),
  /** The session as people call it; a prompt from before names only its key. */
  session_name: z.string().optional(),
  tool_name: z.string().optional(),
  description: z.string().optional(),
  /** The tool's input (a driven session's or a hook's call). */
  input: z.record(z.string(), z.unknown()).optional(),
  /** A channel's relayed prompt carries a preview of the input instead (JSON, perhaps cut short). */
  input_preview: z.string().optional(),
  /** A call auto mode denied (a `denied` prompt): the reason its classifier gave. */
  denied_reason: z.string().optional(),
  /** The agent whose dialog this is, when not Claude Code (core/agents.ts): surfaces name it. */
  agent: agentSchema.optional(),
  /** When the prompt's timeout runs out (ms since the epoch), and what happens then; none: it waits on. */
  expires_at: z.number().optional(),
  on_timeout: z.enum(TIMEOUT_OUTCOMES).optional(),
  text: z.string(),
})

/** What became of a prompt: answered (by whom, how) or cancelled (its asker went away). */
export const outcomeBodySchema = z.object({
  id: z.string(),
  /** The decision's kind (store/decisions.ts). */
  kind: z.enum(['permission', 'pairing', 'question', 'plan', 'denied', 'signin']),
  /** An outcome from before owners were said names only its session. */
  owner: z.string().optional(),
  session: z.string(),
  status: z.enum(['answered', 'cancelled']),
  answer: z.record(z.string(), z.unknown()).optional(),
  answered_by: z.string().optional(),
  reason: z.string().optional(),
})

/** Who started a turn of a session at a terminal (hub/terminals/turn-starter.ts reads it off the prompt). */
export const startedBySchema = z.discriminatedUnion('kind', [
  /** Typed (or answered) at the terminal: what makes its person present. */
  z.object({ kind: z.literal('person') }),
  /** An event of a webhook source, through Switchboard's channel. */
  z.object({ kind: z.literal('webhook'), source: z.string(), event: z.string() }),
  /** A message someone sent (a chat, an HTTP sender, another session), through Switchboard's channel. */
  z.object({ kind: z.literal('message'), source: z.string(), sender: z.string(), event: z.string() }),
  /** Any other event of Switchboard's (a schedule's, a routine's). */
  z.object({ kind: z.literal('event'), source: z.string(), event: z.string() }),
  /** A channel's notification the hub knows nothing of (another plugin's channel): its server. */
  z.object({ kind: z.literal('channel'), source: z.string() }),
])
export type StartedBy = z.infer<typeof startedBySchema>

/**
 * News for operators: a kind they may choose (core/notices.ts: a session waiting or finished, a run
 * started or ended) or, without a kind, one every operator gets (an event not in Claude's context).
 * `at` is one time for every operator's copy, so a surface showing one message for all knows copies.
 */
export const noticeBodySchema = z.object({
  at: z.number(),
  text: z.string(),
  kind: z.enum(NOTICE_KINDS).optional(),
  /** What the notice is about, for a surface to replace an older copy (`waiting:<session>`). */
  id: z.string().optional(),
  session: z.string().optional(),
  session_name: z.string().optional(),
  // A session at a terminal (hub/terminals/terminal-hooks.ts).
  claude_session: z.string().optional(),
  project: z.string().optional(),
  cwd: z.string().optional(),
  message: z.string().optional(),
  started_by: startedBySchema.optional(),
  // An event Claude Code did not take into its context (Hub.recordReceipt).
  event: z.string().optional(),
  reason: z.string().optional(),
  // A routine's run (hub/routines/runner.ts).
  routine: z.string().optional(),
  run: z.string().optional(),
  key: z.string().nullable().optional(),
  state: z.string().optional(),
  cost_usd: z.number().optional(),
  turns: z.number().optional(),
  outcome: z.string().nullable().optional(),
  worktree: z
    .object({
      path: z.string(),
      branch: z.string().nullable(),
      kept: z.boolean(),
      uncommitted: z.array(z.string()).nullable(),
    })
    .optional(),
})

/** A session whose chat thread is closed (a chat bridge's group thread for it). */
export const threadEndBodySchema = z.object({ session: z.string(), text: z.string() })

/** `denied`: a call Claude Code's auto mode denied, which operators may let be retried (hub/terminals/terminal-hooks.ts). */
export const PROMPT_KINDS = ['permission', 'question', 'plan', 'denied'] as const
export type PromptKind = (typeof PROMPT_KINDS)[number]
export const isPromptKind = (kind: string): kind is PromptKind =>
  (PROMPT_KINDS as readonly string[]).includes(kind)

/** One message to a person: its kind (the sender stream's `event:`) and the body that kind has. */
export const outboxMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply'), body: replyBodySchema }),
  z.object({ kind: z.literal('paired'), body: pairedBodySchema }),
  z.object({ kind: z.enum(PROMPT_KINDS), body: promptBodySchema }),
  z.object({ kind: z.literal('decision'), body: outcomeBodySchema }),
  z.object({ kind: z.literal('notice'), body: noticeBodySchema }),
  z.object({ kind: z.literal('thread-end'), body: threadEndBodySchema }),
])

export type OutboxMessage = z.infer<typeof outboxMessageSchema>
export type OutboxKind = OutboxMessage['kind']
export type ReplyBody = z.infer<typeof replyBodySchema>
export type PairedBody = z.infer<typeof pairedBodySchema>
export type PromptBody = z.infer<typeof promptBodySchema>
export type OutcomeBody = z.infer<typeof outcomeBodySchema>
export type NoticeBody = z.infer<typeof noticeBodySchema>
export type ThreadEndBody = z.infer<typeof threadEndBodySchema>
/** A message of one kind. */
export type MessageOf<K extends OutboxKind> = Extract<OutboxMessage, { kind: K }>

/** A prompt (permission, question or plan), whatever else the message or item carries. */
export function isPrompt<M extends OutboxMessage>(message: M): message is Extract<M, { kind: PromptKind }> {
  return isPromptKind(message.kind)
}

/** Every kind an item may have, in the order the stream's description lists them. */
export const OUTBOX_KINDS: readonly OutboxKind[] = outboxMessageSchema.options.flatMap((o) =>
  o.shape.kind instanceof z.ZodLiteral ? [...o.shape.kind.values] : [...o.shape.kind.options],
) as OutboxKind[]

/**
 * A stored kind and body read as a message, or why not, in one line: an unknown kind is named as
 * such (an item from a newer hub, or written by hand), a body by its first wrong field.
 */
export function readOutboxMessage(
  kind: string,
  body: unknown,
): { ok: true; message: OutboxMessage } | { ok: false; reason: string } {
  if (!(OUTBOX_KINDS as readonly string[]).includes(kind))
    return { ok: false, reason: `unknown outbox item kind "${kind}" (known: ${OUTBOX_KINDS.join(', ')})` }
  const read = outboxMessageSchema.safeParse({ kind, body })
  if (read.success) return { ok: true, message: read.data }
  return { ok: false, reason: `a "${kind}" item's ${describeZod(read.error)}` }
}
