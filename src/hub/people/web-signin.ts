// Signing in to the dashboard: `switchboard open` asks the hub for a link whose token works once and
// for a few minutes; the page spends it for a key of its own, which it keeps in the origin's storage
// and sends as a header. A cookie would go to every port of the host and ride along on requests other
// sites start; a header is sent only by the page's own code, from its own origin.
// The link is a decision (kind `signin`), so "works once" is the store's first-answer-wins; the
// browser is a sender of kind `browser`, so `switchboard access block|remove` revokes it.
import { hashToken, newPairingCode, newSecret } from '../../core/ids.js'
import type { Sender, Store } from '../../store/store.js'

export const SIGNIN_TTL_MS = 5 * 60 * 1000
/** How long a browser stays signed in; `switchboard open` signs it in again. */
export const BROWSER_TTL_MS = 30 * 24 * 3600 * 1000

/** What a browser may do: nothing while not allowed or expired; answer and drive only as an operator. */
export type BrowserStanding = 'operator' | 'viewer' | 'out'

export function standing(sender: Sender | null, now = Date.now()): BrowserStanding {
  if (sender?.kind !== 'browser' || sender.status !== 'allowed') return 'out'
  if (sender.expiresAt !== null && sender.expiresAt <= now) return 'out'
  return sender.operator ? 'operator' : 'viewer'
}

export class WebSignin {
  /** Credentials standing in for a browser signed in on another hub, one request each (see standIn). */
  private readonly standIns = new Map<string, string>()

  constructor(private readonly store: Store) {}

  /**
   * A credential that stands for the browser `name` during one request another hub passed on (the
   * browser's own key never leaves the hub it was sent to); `release` ends it.
   */
  standIn(name: string): { credential: string; release(): void } {
    const credential = newSecret('sbf')
    this.standIns.set(credential, name)
    return { credential, release: () => this.standIns.delete(credential) }
  }

  /** A fresh one-time token for a sign-in link. */
  async createLink(now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret('sbl')
    const expiresAt = now + SIGNIN_TTL_MS
    await this.store.openDecision({
      kind: 'signin',
      code: hashToken(token),
      owner: 'web',
      request: {},
      expiresAt,
    })
    return { token, expiresAt }
  }

  /** Spends a link's token: the browser's new key and who it is, or null (unknown, used, expired). */
  async redeem(
    token: string,
    who: { userAgent: string | null },
    now = Date.now(),
  ): Promise<{ key: string; sender: Sender } | null> {
    const [link] = await this.store.openDecisionsByCode('signin', hashToken(token), now)
    if (!link) return null
    const name = `web-${newPairingCode()}`
    if (!(await this.store.answerDecision(link.id, { signedIn: name }, name))) return null
    const key = newSecret('sbw')
    const sender = await this.store.addSender({
      name,
      tokenHash: hashToken(key),
      status: 'allowed',
      operator: true,
      kind: 'browser',
      expiresAt: now + BROWSER_TTL_MS,
      displayName: who.userAgent?.slice(0, 80) ?? 'browser',
    })
    return { key, sender }
  }

  /** The browser a key belongs to, whatever its standing (see `standing`). */
  async browser(key: string | null | undefined): Promise<Sender | null> {
    if (!key) return null
    const standingFor = this.standIns.get(key)
    const sender = standingFor
      ? await this.store.senderByName(standingFor)
      : await this.store.senderByToken(hashToken(key))
    return sender?.kind === 'browser' ? sender : null
  }

  /** The browsers signed in (blocked ones too: they show until removed), oldest first. */
  async list(): Promise<Sender[]> {
    return (await this.store.listSenders()).filter((s) => s.kind === 'browser')
  }
}
