// Web Push to the operators' browsers, with the dashboard closed: each prompt put to an operator (an
// item of their outbox, like its copy in their chat or stream: one fan-out, Decisions.toOperators)
// and each finished turn of a driven session goes, encrypted to the browser (RFC 8291, by the web-push
// library) and signed with the hub's VAPID keys (RFC 8292), to the push service of each browser that
// subscribed, as long as that browser may still operate. A subscription the push service says is gone
// (404, 410) is dropped. The service worker (web/public/sw.js) shows it, with Allow and Deny on it.
import { pathOf } from '../../core/api/routes.js'
import type { PushPayload, PushSubscriptionRow, TurnRow } from '../../core/api/rows.js'
import { forbidden, invalid, notFound } from '../../core/errors.js'
import { newId } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import { formatUsd } from '../../core/money.js'
import { isLoopback } from '../../core/network.js'
import { isPrompt, isPromptKind } from '../../core/outbox.js'
import { oneLine, sessionName } from '../../core/session-name.js'
import { deniedText, toolCallView } from '../../core/tool-call-text.js'
import type {
  Decision,
  OutboxItem,
  PushKeys,
  PushSubscriptionRecord,
  Sender,
  Store,
} from '../../store/store.js'
import { sessionOfDecision } from './decisions.js'

/** How long a push service keeps a push for a phone that is off: a prompt an hour old is still open. */
const TTL_SECONDS = 60 * 60
/** A push service answers within this, or the push is given up (the next one tries again). */
const SEND_TIMEOUT_MS = 10_000
/** Text of a notification: what a lock screen shows, well under a payload's 4 KB. */
const BODY_MAX = 180

export interface PushOptions {
  /** How a request reaches a push service (a test's fake one too). */
  fetch?: typeof fetch
  /**
   * Who sends (RFC 8292's `sub`, the pushContact setting, read at each push): push services ask for
   * a contact; the default, a mailto of an example domain, is what a hub without one can honestly give.
   */
  contact?: () => string
}

const NO_CONTACT = 'mailto:switchboard@example.com'

/** The push service's host, which is all a list shows of an endpoint (the endpoint is a capability). */
function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).host
  } catch {
    return '?'
  }
}

/**
 * A push service is reached over https; plain http only on this machine (a push service a test
 * stands up). Anything else is refused before it is stored, so the hub never posts there.
 */
function checkEndpoint(endpoint: string): void {
  const url = new URL(endpoint)
  if (url.protocol === 'https:') return
  if (url.protocol === 'http:' && isLoopback(url.hostname.replace(/^\[|\]$/g, ''))) return
  throw invalid('endpoint must be an https URL (a browser’s push service)')
}

/**
 * web-push, and what it brings (asn1.js, bn.js, jws …): loaded the first time a hub needs its keys or
 * has a browser to push to, not by every hub that starts (`npm run bench:startup`).
 */
let webPushLibrary: Promise<typeof import('web-push')> | null = null
const webPush = () => (webPushLibrary ??= import('web-push').then((m) => m.default))

export class Push {
  private keys: Promise<PushKeys> | null = null
  private readonly fetch: typeof fetch
  private readonly contact: () => string

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    options: PushOptions = {},
  ) {
    this.fetch = options.fetch ?? globalThis.fetch
    this.contact = options.contact ?? (() => NO_CONTACT)
  }

  /** The hub's key pair, made on first use and kept in the store (every hub on it signs alike). */
  private vapid(): Promise<PushKeys> {
    this.keys ??= webPush()
      .then((library) => this.store.pushKeys(() => library.generateVAPIDKeys()))
      .catch((err) => {
        this.keys = null
        throw err
      })
    return this.keys
  }

  async publicKey(): Promise<string> {
    return (await this.vapid()).publicKey
  }

  async subscribe(
    sender: Sender,
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
    userAgent: string | null,
  ): Promise<PushSubscriptionRow> {
    checkEndpoint(subscription.endpoint)
    const record = await this.store.addPushSubscription({
      id: newId('push'),
      senderId: sender.id,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      displayName: userAgent ? userAgent.slice(0, 300) : null,
    })
    this.log.info(
      { push: record.id, sender: sender.name, service: serviceOf(record.endpoint) },
      'push subscribed',
    )
    return this.row(record, new Map([[sender.id, sender]]), sender.id)
  }

  /** Every subscription; `current`: those of the sender asking. */
  async list(current: string | null): Promise<PushSubscriptionRow[]> {
    const senders = await this.senders()
    return (await this.store.listPushSubscriptions()).map((s) => this.row(s, senders, current))
  }

  async revoke(id: string, by: string): Promise<void> {
    if (!(await this.store.removePushSubscription(id))) throw notFound(`no push subscription ${id}`)
    this.log.info({ push: id, by }, 'push subscription revoked')
  }

  /**
   * An item stored for a sender (HubEvents.stored, on the hub that stored it): a prompt goes to that
   * sender's browsers, as it goes to their chat and their stream; the decision is read for its id
   * (what the notification's Allow answers) and its call.
   */
  async stored(item: OutboxItem): Promise<void> {
    if (!isPrompt(item)) return
    const open = await this.store.openDecisionsByCode(item.kind, item.body.id, Date.now())
    const decision = open.find((d) => d.owner === (item.body.owner ?? item.body.session))
    if (decision) await this.prompt(decision, item.senderId)
  }

  /** A prompt put to an operator, to their browsers. */
  private async prompt(decision: Decision, senderId: string): Promise<void> {
    if (!isPromptKind(decision.kind)) return
    const session = sessionOfDecision(decision).name
    const request = decision.request
    const tool = typeof request.tool_name === 'string' && request.tool_name ? request.tool_name : 'a tool'
    const preview = typeof request.input_preview === 'string' ? request.input_preview : null
    // A channel relays a preview of the input: read as the input when it is whole JSON (`$ ls`, not JSON).
    const input = objectOf(request.input) ?? objectOf(parseOrNull(preview))
    const asks =
      decision.kind === 'question'
        ? `asks: ${questionOf(input) ?? 'a question'}`
        : decision.kind === 'plan'
          ? `wants its plan approved: ${typeof input?.plan === 'string' ? input.plan : ''}`
          : decision.kind === 'denied'
            ? deniedText({ ...request, tool_name: tool, input: input ?? {} })
            : toolCallView(tool, input, preview, BODY_MAX)
    await this.send(senderId, {
      type: 'decision',
      decision: decision.id,
      answer: pathOf('answer', { ref: decision.id }),
      kind: decision.kind,
      session: decision.owner,
      title: decision.kind === 'permission' ? `${session}: ${tool}` : session,
      body: oneLine(asks, BODY_MAX),
      url: urlOf(decision.owner),
      actions: decision.kind !== 'question',
    })
  }

  /** A driven session finished a turn. */
  async turn(turn: TurnRow): Promise<void> {
    const said = turn.error ?? turn.text ?? ''
    const cost = turn.costUsd !== null ? ` (${formatUsd(turn.costUsd)})` : ''
    const session = await this.nameOf(turn.session)
    await this.send(null, {
      type: 'turn',
      session: turn.session,
      title: turn.error ? `${session} ended its turn early` : `${session} finished its turn`,
      body: oneLine(`${said}${cost}`, BODY_MAX) || 'Done.',
      url: urlOf(turn.session),
    })
  }

  /** A test notification to one sender's browsers (the dashboard's "Send a test"). */
  async test(sender: Sender): Promise<number> {
    const mine = (await this.store.listPushSubscriptions()).filter((s) => s.senderId === sender.id)
    if (!mine.length) throw notFound('this browser gets no push yet: turn it on first')
    const payload: PushPayload = {
      type: 'test',
      title: 'Switchboard',
      body: 'Push works: prompts and finished turns come here with the page closed.',
      url: '/',
    }
    const sent = await Promise.all(mine.map((s) => this.deliver(s, payload)))
    return sent.filter(Boolean).length
  }

  /**
   * To every subscription of a sender (null: of every sender) whose browser may still operate; one
   * that is gone is dropped.
   */
  async send(senderId: string | null, payload: PushPayload): Promise<number> {
    const subscriptions = (await this.store.listPushSubscriptions()).filter(
      (s) => senderId === null || s.senderId === senderId,
    )
    if (!subscriptions.length) return 0
    const senders = await this.senders()
    const now = Date.now()
    const sent = await Promise.all(
      subscriptions.map(async (s) => {
        const sender = senders.get(s.senderId)
        if (!sender) {
          // Its browser was removed: nobody will ever read what goes there.
          await this.store.removePushSubscription(s.id)
          return false
        }
        // Signed out, blocked or demoted: keeps its row (the operator may see and revoke it), gets nothing.
        if (!mayOperate(sender, now)) return false
        return this.deliver(s, payload)
      }),
    )
    return sent.filter(Boolean).length
  }

  private async deliver(s: PushSubscriptionRecord, payload: PushPayload): Promise<boolean> {
    try {
      const keys = await this.vapid()
      const details = (await webPush()).generateRequestDetails(
        { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: this.contact(), publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: TTL_SECONDS,
          urgency: payload.type === 'decision' ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
        },
      )
      const headers: Record<string, string> = {}
      // fetch counts the body's length itself.
      for (const [name, value] of Object.entries(details.headers))
        if (name.toLowerCase() !== 'content-length') headers[name] = String(value)
      const answer = await this.fetch(s.endpoint, {
        method: 'POST',
        headers,
        body: details.body ? new Uint8Array(details.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      })
      await answer.body?.cancel()
      if (answer.status === 404 || answer.status === 410) {
        await this.store.removePushSubscription(s.id)
        this.log.info({ push: s.id, status: answer.status }, 'push subscription gone: dropped')
        return false
      }
      if (!answer.ok) {
        this.log.warn({ push: s.id, status: answer.status }, 'push service refused a push')
        return false
      }
      return true
    } catch (err) {
      this.log.warn({ push: s.id, err: err instanceof Error ? err.message : String(err) }, 'push not sent')
      return false
    }
  }

  private async senders(): Promise<Map<string, Sender>> {
    return new Map((await this.store.listSenders()).map((s) => [s.id, s]))
  }

  private row(s: PushSubscriptionRecord, senders: Map<string, Sender>, current: string | null) {
    return {
      id: s.id,
      sender: senders.get(s.senderId)?.name ?? '(removed)',
      service: serviceOf(s.endpoint),
      displayName: s.displayName,
      createdAt: s.createdAt,
      current: s.senderId === current,
    }
  }

  /** A driven session by its name; anything else (a channel, a terminal's session) by its own. */
  private async nameOf(owner: string): Promise<string> {
    if (!owner.startsWith('ses_')) return owner
    const record = await this.store.getSession(owner).catch(() => null)
    return record ? sessionName(record) : owner
  }
}

/** Only a sender (a signed-in browser, or a sender's token) subscribes: pushes go to someone. */
export function subscriberOf(sender: Sender | null): Sender {
  if (!sender) throw forbidden('only a signed-in browser gets push notifications')
  return sender
}

function mayOperate(sender: Sender, now: number): boolean {
  return (
    sender.status === 'allowed' && sender.operator && (sender.expiresAt === null || sender.expiresAt > now)
  )
}

function objectOf(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}

function parseOrNull(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function questionOf(input: Record<string, unknown> | null): string | null {
  const questions = input?.questions
  if (!Array.isArray(questions)) return null
  const first = questions[0] as { question?: unknown } | undefined
  return typeof first?.question === 'string' ? first.question : null
}

/** The dashboard's page of an owner: a driven session's own page; anything else, the Inbox. */
function urlOf(owner: string): string {
  return owner.startsWith('ses_') ? `/#/sessions/${encodeURIComponent(owner)}` : '/#/inbox'
}
