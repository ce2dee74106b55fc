// Who may talk to Claude: senders with tokens, pairing for the ones who have none yet. The hub's
// alone: it authenticates requests with it, and the admin manages senders through its API.
import { BRIDGE_PLATFORMS, type BridgePlatform, USER_IDS } from '../../core/bridges.js'
import { invalid, rateLimited } from '../../core/errors.js'
import { hashToken, newPairingCode, newSecret } from '../../core/ids.js'
import { isPromptKind } from '../../core/outbox.js'
import type { Decision, Sender, Store } from '../../store/store.js'
import { promptOf } from './decisions.js'
import type { SenderOutbox } from './sender-outbox.js'

export const PAIRING_TTL_MS = 60 * 60 * 1000
/**
 * Codes waiting at once on each surface (a chat platform, HTTP `POST /pair`): strangers flooding one
 * cannot stop pairing on another, and the operator's own way in (`access allow <platform>:<id>`)
 * waits for none of them. On a platform each person has one code at a time (their pending sender).
 */
export const MAX_PENDING_PAIRINGS = 3
export const SENDER_NAME = /^[A-Za-z0-9._@-]{1,64}$/

export function checkSenderName(name: string): string {
  if (!SENDER_NAME.test(name)) throw invalid(`sender name "${name}" must be 1-64 letters, digits or . _ @ -`)
  return name
}

export interface PairingRequester {
  address: string
  userAgent: string | null
}

export class Access {
  constructor(
    private readonly store: Store,
    /** The hub's: what a change tells a person (a "Paired", a new operator's prompts) goes out at once. */
    private readonly outbox: SenderOutbox,
  ) {}

  async addSender(name: string, operator: boolean): Promise<{ sender: Sender; token: string }> {
    checkSenderName(name)
    if (await this.store.senderByName(name)) throw invalid(`a sender named "${name}" exists already`)
    const token = newSecret('sbs')
    const sender = await this.store.addSender({
      name,
      tokenHash: hashToken(token),
      status: 'allowed',
      operator,
    })
    return { sender, token }
  }

  /** The sender a token belongs to, whatever its status; callers decide what each status may do. */
  async authenticate(token: string | null): Promise<Sender | null> {
    if (!token) return null
    return this.store.senderByToken(hashToken(token))
  }

  /**
   * A browser or phone with no token asks to pair: it gets a code to show and a token that waits.
   * Who asked (address, user agent) is kept with the request, for the operator to check.
   */
  async requestPairing(
    who: PairingRequester,
    now = Date.now(),
  ): Promise<{ code: string; token: string; expiresAt: number }> {
    if ((await this.pendingOn('http', now)) >= MAX_PENDING_PAIRINGS)
      throw rateLimited(
        `too many pending pairing requests over HTTP (at most ${MAX_PENDING_PAIRINGS}); try later`,
      )
    const code = newPairingCode()
    const token = newSecret('sbs')
    const sender = await this.store.addSender({
      name: `pending-${code}`,
      tokenHash: hashToken(token),
      status: 'pending',
      operator: false,
    })
    const expiresAt = now + PAIRING_TTL_MS
    await this.store.openDecision({ kind: 'pairing', code, owner: sender.id, request: { ...who }, expiresAt })
    return { code, token, expiresAt }
  }

  /**
   * A person on a chat platform with no sender yet asks to pair: a pending sender named
   * `<platform>:<user id>` (the platform's user id is what gates them, never the chat) and a code.
   */
  async requestChatPairing(
    who: { platform: string; userId: string; userName: string; chatId: string },
    now = Date.now(),
  ): Promise<{ code: string; expiresAt: number } | null> {
    if ((await this.pendingOn(who.platform, now)) >= MAX_PENDING_PAIRINGS) return null
    const code = newPairingCode()
    const sender = await this.store.addSender({
      name: `${who.platform}:${who.userId}`,
      tokenHash: hashToken(newSecret('sbs')), // never handed out: a bridge sender has no token
      status: 'pending',
      operator: false,
      displayName: who.userName,
    })
    const expiresAt = now + PAIRING_TTL_MS
    const request = {
      platform: who.platform,
      user_id: who.userId,
      user: who.userName,
      chat_id: who.chatId,
      address: `${who.platform} user ${who.userName} (${who.userId})`,
      userAgent: null,
    }
    await this.store.openDecision({ kind: 'pairing', code, owner: sender.id, request, expiresAt })
    return { code, expiresAt }
  }

  async approvePairing(
    code: string,
    options: { name?: string; operator?: boolean; by: string },
  ): Promise<Sender> {
    const normalized = code.trim().toLowerCase()
    const [decision] = await this.store.openDecisionsByCode('pairing', normalized, Date.now())
    if (!decision)
      throw invalid(`no pending pairing request with code "${normalized}" (codes expire after 1 hour)`)
    if (options.name) {
      checkSenderName(options.name)
      const taken = await this.store.senderByName(options.name)
      if (taken && taken.id !== decision.owner)
        throw invalid(`a sender named "${options.name}" exists already`)
    }
    const answered = await this.store.answerDecision(decision.id, { approved: true }, options.by)
    if (!answered) throw invalid(`pairing request "${normalized}" was answered a moment ago`)
    const pending = await this.store.senderById(decision.owner)
    if (!pending) throw invalid('the paired sender was removed meanwhile')
    // A browser's placeholder name gives way; a chat platform's `<platform>:<user id>` is who they are
    // (their bridge finds them by it), so a name given for them is how they are shown instead.
    const placeholder = pending.name.startsWith('pending-')
    await this.store.updateSender(decision.owner, {
      status: 'allowed',
      operator: options.operator ?? false,
      ...(placeholder
        ? { name: options.name ?? `paired-${normalized}` }
        : options.name
          ? { displayName: options.name }
          : {}),
    })
    const sender = (await this.store.senderById(decision.owner)) as Sender
    await this.welcome(sender)
    return sender
  }

  /** Tells a sender just let in so, and puts an operator every prompt still open. */
  private async welcome(sender: Sender): Promise<void> {
    await this.outbox.send(sender.id, {
      kind: 'paired',
      body: {
        text: `Paired${sender.operator ? ' as an operator' : ''}: your messages now reach Claude.`,
        operator: sender.operator,
      },
    })
    if (sender.operator) await this.sendOpenPrompts(sender)
  }

  /**
   * A person who just became an operator is sent each prompt still open, as the operators before
   * them were: one raised before they paired would otherwise never reach them.
   */
  private async sendOpenPrompts(sender: Sender, now = Date.now()): Promise<void> {
    const open = (await this.store.listDecisions({ status: 'open' })).filter(
      (d) => d.expiresAt === null || d.expiresAt > now,
    )
    for (const decision of open) {
      // Only prompts: a pairing is the operator's own, not one put to them.
      if (!isPromptKind(decision.kind)) continue
      const shown = await this.outbox.about(sender.id, decision.code)
      // Sent already, while they were an operator before.
      const prompt = promptOf(decision, decision.kind)
      if (shown.some((i) => i.kind === prompt.kind && (i.body.owner ?? i.body.session) === decision.owner))
        continue
      await this.outbox.send(sender.id, prompt)
    }
  }

  /** Open pairing codes from one surface: a chat platform, or `http`. */
  private async pendingOn(surface: string, now: number): Promise<number> {
    const pending = await this.pendingPairings(now)
    return pending.filter((d) => (d.request.platform ?? 'http') === surface).length
  }

  /** A pairing request turned down: the code stops working and the waiting sender is removed. */
  async denyPairing(code: string, by: string): Promise<void> {
    const [decision] = await this.store.openDecisionsByCode('pairing', code.trim().toLowerCase(), Date.now())
    if (!decision) throw invalid(`no pending pairing request with code "${code}"`)
    if (!(await this.store.answerDecision(decision.id, { approved: false }, by)))
      throw invalid(`pairing request "${code}" was answered a moment ago`)
    const sender = await this.store.senderById(decision.owner)
    if (sender?.status === 'pending') await this.store.removeSender(sender.id)
  }

  /** Pairing requests waiting for an operator, newest first. */
  async pendingPairings(now = Date.now()): Promise<Decision[]> {
    const open = await this.store.listDecisions({ kind: 'pairing', status: 'open' })
    return open.filter((d) => d.expiresAt === null || d.expiresAt > now)
  }

  /** Pending senders whose code expired can never be approved: remove them with their token. */
  async dropExpiredPairings(now = Date.now()): Promise<void> {
    // A sign-in link's time is up too (the sweep took every kind before prompts had a timeout).
    await this.store.expireDecisions(now, 'signin')
    for (const d of await this.store.expireDecisions(now, 'pairing')) {
      const sender = await this.store.senderById(d.owner)
      if (sender?.status === 'pending') await this.store.removeSender(sender.id)
    }
  }

  /**
   * Allows or blocks a sender. `<platform>:<user id>` may be allowed before that person ever wrote
   * (the operator's own account, whatever strangers hold the platform's codes); one waiting with a
   * code is let in and the code closed.
   */
  async setStatus(name: string, status: 'allowed' | 'blocked', operator?: boolean): Promise<Sender> {
    const before =
      (await this.store.senderByName(name)) ?? (status === 'allowed' ? await this.addChatSender(name) : null)
    if (!before) throw invalid(`no sender named "${name}" (see: switchboard access list)`)
    await this.store.updateSender(before.id, { status, ...(operator === undefined ? {} : { operator }) })
    const sender = (await this.store.senderById(before.id)) as Sender
    if (status !== 'allowed') return sender
    if (before.status === 'pending') {
      for (const d of (await this.pendingPairings()).filter((p) => p.owner === sender.id))
        await this.store.answerDecision(d.id, { approved: true }, 'access allow')
      await this.welcome(sender)
    } else if (sender.operator && !(before.operator && before.status === 'allowed'))
      await this.sendOpenPrompts(sender)
    return sender
  }

  /** `<platform>:<user id>` allowed ahead of their first message: a pending sender, until updated. */
  private async addChatSender(name: string): Promise<Sender | null> {
    const [platform, userId, ...rest] = name.split(':')
    if (!BRIDGE_PLATFORMS.includes(platform as BridgePlatform) || userId === undefined || rest.length)
      return null
    const { pattern, example } = USER_IDS[platform as BridgePlatform]
    if (!pattern.test(userId)) throw invalid(`"${userId}" is not a ${platform} user id: one is ${example}`)
    return this.store.addSender({
      name,
      tokenHash: hashToken(newSecret('sbs')), // never handed out: a bridge sender has no token
      status: 'pending',
      operator: false,
    })
  }

  /** Every sender, oldest first; `kind` narrows it to people (`token`) or browsers. */
  async list(kind?: Sender['kind']): Promise<Sender[]> {
    const senders = await this.store.listSenders()
    return kind ? senders.filter((s) => s.kind === kind) : senders
  }

  find(name: string): Promise<Sender | null> {
    return this.store.senderByName(name)
  }

  /** A browser signs out, or is signed out: its key stops working. */
  async signOut(browser: Sender): Promise<void> {
    await this.store.removeSender(browser.id)
  }

  async remove(name: string): Promise<void> {
    const sender = await this.requireSender(name)
    await this.store.removeSender(sender.id)
  }

  private async requireSender(name: string): Promise<Sender> {
    const sender = await this.store.senderByName(name)
    if (!sender) throw invalid(`no sender named "${name}" (see: switchboard access list)`)
    return sender
  }
}
