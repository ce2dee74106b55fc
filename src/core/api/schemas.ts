// What each route of the hub takes: its JSON body and its query, as zod schemas the hub checks every
// request with (hub/http/define.ts), the OpenAPI document is generated from, and the clients' types
// are inferred from (the page imports this file for types only).
import * as z from 'zod'
import { agentChoiceSchema, agentOptionsProblem } from '../../core/agent-options.js'
import { hookInputSchema } from '../../core/claude-hooks.js'
import { claudeOptionsSchema } from '../../core/claude-options.js'
import { budgetSchema } from '../budgets.js'
import { metaSchema } from '../event.js'
import { subscriberNameSchema, topicSchema } from '../hub-protocol.js'
import { noticeChoiceSchema } from '../notices.js'
import { outboxMessageSchema } from '../outbox.js'
import { eventStateSchema } from '../receipts.js'
import { routineSpecSchema } from '../routines.js'
import { expiresInMinutesSchema, rulePatternSchema, ruleScopes } from '../rule-schema.js'
import { linesQuerySchema, respondSchema, sessionSetupSchema } from '../session-api.js'
import {
  fieldMapSchema,
  givenSecretSchema,
  headerNameSchema,
  presetSchema,
  projectKeysSchema,
  SENDER_MADE_SECRET,
  sourceNameSchema,
} from '../source-spec.js'
import { usageQuerySchema } from '../usage.js'

const folder = z.string().min(1, 'choose a folder').startsWith('/', 'the folder is an absolute path')

export const createSessionSchema = z
  .object({
    prompt: z.string().min(1, 'must not be empty'),
    options: claudeOptionsSchema.extend({ cwd: folder }),
    /** Events on these topics are written into the session as `<channel>` messages. */
    topics: z.array(topicSchema).optional(),
    /** How the hub runs its CLI (another binary, the --sdk-url transport): the admin token's only. */
    setup: sessionSetupSchema.optional(),
    /** Other sessions may message this one (peers): off unless asked for. */
    peer: z.boolean().optional(),
    /** The coding agent that runs it: Claude Code unless another is named. */
    agent: agentChoiceSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const problem = agentOptionsProblem(body.agent ?? 'claude', body.options, body.setup)
    if (problem) ctx.addIssue({ code: 'custom', path: ['agent'], message: problem })
  })

export const sendMessageSchema = z
  .object({ text: z.string().min(1, 'the message is empty'), fork: z.boolean().optional() })
  .strict()

/** A file sent to a session: its name (cleaned before it touches the disk) and words to go with it. */
export const uploadFileQuerySchema = z
  .object({
    name: z.string().min(1, 'the file has no name').max(255, 'the file name is over 255 characters'),
    // In the query, so within what a request line may hold: a longer message goes as a message.
    text: z.string().max(4000, 'the words with a file are at most 4000 characters').optional(),
  })
  .strict()

/** A recording to transcribe: its name as the speech-to-text service is told it. */
export const transcribeQuerySchema = z
  .object({
    name: z
      .string()
      .min(1, 'the recording has no name')
      .max(255, 'the name is over 255 characters')
      .optional(),
  })
  .strict()

/** What a recording's Content-Type must be: audio of some kind (a browser's is audio/webm;codecs=opus). */
export const recordingTypeSchema = z
  .string({ error: 'a recording needs its type as Content-Type (audio/webm, audio/ogg…)' })
  .regex(/^audio\/[a-z0-9.+-]+\s*(;.*)?$/i, {
    error: (issue) => `a recording is audio (audio/webm, audio/ogg…), not ${String(issue.input)}`,
  })

export const respondBodySchema = z.object({ decision: z.string().min(1), answer: respondSchema }).strict()

export const modelSchema = z.object({ model: z.string().min(1) }).strict()

export const permissionModeBodySchema = z
  .object({ mode: claudeOptionsSchema.shape.permissionMode.unwrap() })
  .strict()

/** An IDE by its port or its name, as `switchboard ide list` shows them. */
export const ideSchema = z.object({ ide: z.string().min(1, 'name the IDE: its port or its name') }).strict()

export const sessionQuerySchema = z.object({
  /** Seconds to wait for the session to need someone (or end its turn), at most 300. */
  wait: z.coerce.number().min(0).max(300).default(0),
})

export const historyQuerySchema = z.object({ cwd: z.string().min(1).optional() })

export { linesQuerySchema }

/** An answer to a decision: allow (with edited input, or a question's answers), or deny with a message. */
export const answerSchema = respondSchema

export const signinSchema = z.object({ token: z.string().min(1).max(200) }).strict()

export const senderChangeSchema = z
  .object({ status: z.enum(['allowed', 'blocked']).optional(), operator: z.boolean().optional() })
  .strict()

/** A sender made by the admin (its name is checked by the hub's Access, which says what it must be). */
export const newSenderSchema = z
  .object({ name: z.string().min(1).max(200), operator: z.boolean().default(false) })
  .strict()

/**
 * A sender allowed or blocked by the admin, made an operator or not (absent: as it was). Allowing
 * `<platform>:<user id>` lets a chat account in before it writes.
 */
export const senderAccessSchema = z
  .object({ status: z.enum(['allowed', 'blocked']), operator: z.boolean().optional() })
  .strict()

/** A pairing request approved by its code: the new sender's name (default paired-<code>), operator or not. */
export const pairingApprovalSchema = z
  .object({ name: z.string().min(1).max(200).optional(), operator: z.boolean().optional() })
  .strict()

/**
 * A webhook source, as `switchboard source add` makes it: the hub makes its secret unless the
 * sending side made one (a preset whose sender does, Sentry's, must be given it).
 */
export const newSourceSchema = z
  .object({
    name: sourceNameSchema,
    /** Where its events are published; the source's name when absent. */
    topic: topicSchema.optional(),
    deliveryHeader: headerNameSchema.nullable().default(null),
    preset: presetSchema.default('generic'),
    fieldMap: fieldMapSchema.nullable().default(null),
    about: projectKeysSchema.default([]),
    secret: givenSecretSchema.optional(),
  })
  .strict()
  .refine((s) => s.fieldMap === null || s.preset === 'generic', {
    message: 'a field map is for the generic preset; the others read their payload themselves',
    path: ['fieldMap'],
  })
  .refine((s) => s.secret !== undefined || !SENDER_MADE_SECRET.has(s.preset), {
    message: 'this preset checks signatures with the secret its sender made: give it',
    path: ['secret'],
  })

/** A source's new secret: the one given (its sender made it), or one the hub makes. */
export const sourceSecretSchema = z.object({ secret: givenSecretSchema.optional() }).strict()

/** The projects a source's events are about; [] for none. */
export const sourceAboutSchema = z.object({ about: projectKeysSchema }).strict()

/**
 * "Always allow": a rule made from a decision, for the same tool with the same input, in a session, a
 * folder or everywhere, until it expires or is revoked. The hub applies it before a prompt is shown
 * and records the answer as given by the rule; making it also approves the decision.
 */
export const newRuleSchema = z
  .object({
    decision: z.string().min(1, 'the decision to make the rule from'),
    scope: z.enum(ruleScopes, { message: 'scope is one of session, folder, operator or everywhere' }),
    /** null or absent: until revoked. */
    expiresInMinutes: expiresInMinutesSchema,
  })
  .strict()

export const chatMessageSchema = z
  .object({
    text: z.string().min(1, 'the message is empty').max(60_000),
    /** One session by name; all that take chat when absent. */
    to: z.string().min(1).max(100).optional(),
  })
  .strict()

export const eventsQuerySchema = z
  .object({
    /** Text the events hold (the first 200 characters count). */
    q: z
      .string()
      .transform((q) => q.slice(0, 200) || undefined)
      .optional(),
    source: z
      .string()
      .transform((s) => s || undefined)
      .optional(),
    /** Events on this topic. */
    topic: z
      .string()
      .transform((t) => t || undefined)
      .optional(),
    /** Events delivered to this subscriber (a session's name). */
    subscriber: z
      .string()
      .transform((s) => s || undefined)
      .optional(),
    /** Events with a delivery in this state (for `subscriber`, when named); `parked`: no subscriber has one. */
    state: eventStateSchema.optional(),
    /** A seq: events before it (the next page); anything else is the first page. */
    before: z.coerce.number().int().positive().optional().catch(undefined),
    /** How many (50 unless said). */
    limit: z.coerce
      .number()
      .int()
      .min(1, 'a page holds 1 to 200 events')
      .max(200, 'a page holds 1 to 200 events')
      .optional(),
  })
  .refine((q) => !(q.state === 'parked' && q.subscriber), {
    message: 'a parked event has no subscriber: state parked takes no subscriber',
  })

export const peerMessageSchema = z
  .object({
    from: z.string().min(1).max(100).default('cli'),
    to: subscriberNameSchema,
    text: z.string().min(1),
  })
  .strict()

export const deadLettersQuerySchema = z.object({ kind: z.string().min(1).max(40).optional() })

export const subscribeSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    topics: z.array(topicSchema).min(1).default(['*']),
    maxAttempts: z.number().int().min(1).max(50).default(8),
    backoffMs: z.number().int().min(10).max(3_600_000).default(1_000),
    /** Also POST a receipt when an event of these topics is in a session's context, or ends unconfirmed. */
    receipts: z.boolean().default(false),
  })
  .strict()

export const hookTakeSchema = z
  .object({
    subscriber: subscriberNameSchema,
    /** The session's working folder: a subscriber made now gets what is about its project. */
    folder: z.string().startsWith('/').max(4096).optional(),
  })
  .strict()

export const messageBodySchema = z
  .object({
    text: z.string().min(1, 'text must not be empty').max(32_000),
    to: subscriberNameSchema.optional(),
  })
  .strict()

export const healthQuerySchema = z.object({ challenge: z.string().optional() })

/** A session's title; null or empty: named by its folder and first prompt again. */
export const sessionTitleSchema = z
  .object({
    title: z
      .string()
      .max(120, 'a title is at most 120 characters')
      .transform((t) => t.trim() || null)
      .nullable(),
  })
  .strict()

/** A base64url string (the browser's key and auth secret of a PushSubscription). */
const base64url = (what: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)

/** A browser's PushSubscription, as its toJSON() gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: 'endpoint must be the push service’s http(s) URL' })
    .max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url('keys.p256dh'), auth: base64url('keys.auth') }),
})

/** An event a person gives a routine (`routine fire`, `routine test --event`): any of its fields. */
export const givenEventSchema = z
  .object({
    id: z.string().min(1).max(200).optional(),
    topic: z.string().min(1).max(200).optional(),
    source: z.string().min(1).max(200).optional(),
    sender: z.string().max(200).nullable().optional(),
    chat_id: z.string().max(200).nullable().optional(),
    content: z.string().max(1_000_000).optional(),
    meta: metaSchema.optional(),
  })
  .strict()

export const routineEventSchema = z.object({ event: givenEventSchema.default({}) }).strict()

/** A request as a webhook source's sender would send it: made into events by the source's preset. */
export const webhookRequestSchema = z
  .object({
    source: z.string().min(1).max(200),
    /** The sender's headers (X-GitHub-Event, Content-Type …); names in any case. */
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'not an HTTP header name'), z.string().max(8192))
      .default({}),
    body: z.string().min(1, 'the body is empty').max(1_000_000),
  })
  .strict()

/** A dry run's event: one given as it would be stored, or a webhook request a source's preset makes events of. */
export const routineTestSchema = z
  .object({ event: givenEventSchema.optional(), webhook: webhookRequestSchema.optional() })
  .strict()

export const routineRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50).catch(50),
})

/** Each route's inputs, by route name: what the hub checks and the clients are typed from. */
export const INPUTS = {
  health: { query: healthQuerySchema },
  signin: { body: signinSchema },
  changeSender: { body: senderChangeSchema },
  addSender: { body: newSenderSchema },
  setSenderAccess: { body: senderAccessSchema },
  approvePairing: { body: pairingApprovalSchema },
  addSource: { body: newSourceSchema },
  rotateSource: { body: sourceSecretSchema },
  bindSource: { body: sourceAboutSchema },
  chooseNotices: { body: noticeChoiceSchema },
  events: { query: eventsQuerySchema },
  sendToPeer: { body: peerMessageSchema },
  deadLetters: { query: deadLettersQuerySchema },
  subscribe: { body: subscribeSchema },
  hookTake: { body: hookTakeSchema },
  claudeHook: { body: hookInputSchema },
  answer: { body: answerSchema },
  makeRule: { body: newRuleSchema },
  previewRule: { body: rulePatternSchema },
  makePatternRule: { body: rulePatternSchema },
  history: { query: historyQuerySchema },
  createSession: { body: createSessionSchema },
  session: { query: sessionQuerySchema },
  sendMessage: { body: sendMessageSchema },
  uploadFile: { query: uploadFileQuerySchema },
  transcribe: { query: transcribeQuerySchema },
  respond: { body: respondBodySchema },
  setModel: { body: modelSchema },
  setPermissionMode: { body: permissionModeBodySchema },
  bindIde: { body: ideSchema },
  sessionLines: { query: linesQuerySchema },
  chat: { body: chatMessageSchema },
  nameSession: { body: sessionTitleSchema },
  pushSubscribe: { body: pushSubscriptionSchema },
  addRoutine: { body: routineSpecSchema },
  routineRuns: { query: routineRunsQuerySchema },
  usage: { query: usageQuerySchema },
  setBudget: { body: budgetSchema },
  fireRoutine: { body: routineEventSchema },
  testRoutine: { body: routineTestSchema },
} as const

/**
 * What each server-sent event stream sends, by route name: a union of `{ kind, body }`, each kind an
 * event's `event:` and its body the event's `data:` (JSON). The OpenAPI document lists them.
 */
export const STREAM_EVENTS = {
  senderEvents: outboxMessageSchema,
} as const
