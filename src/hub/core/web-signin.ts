// Signing in to the dashboard: `switchboard open` asks the hub for a link whose token works once and
// for a few minutes; opening it makes the browser an operator with a session cookie of its own.
// The link is a decision (kind `signin`), so "works once" is the store's first-answer-wins; the
// browser is a sender (`web-…`), so `switchboard access block|remove` revokes it.
import { hashToken, newPairingCode, newSecret } from '../../core/ids.js'
import type { Sender, Store } from '../../store/store.js'

export const SIGNIN_TTL_MS = 5 * 60 * 1000

export class WebSignin {
  /** Credentials standing in for a browser signed in on another hub, one request each (see standIn). */
  private readonly standIns = new Map<string, string>()

  constructor(private readonly store: Store) {}

  /**
   * A credential that stands for the browser `name` during one request another hub passed on (the
   * browser's own never leaves the hub it signed in on); `release` ends it.
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

  /** Spends a link's token: the browser's new cookie and who it is, or null (unknown, used, expired). */
  async redeem(
    token: string,
    who: { userAgent: string | null },
  ): Promise<{ cookie: string; sender: Sender } | null> {
    const [link] = await this.store.openDecisionsByCode('signin', hashToken(token), Date.now())
    if (!link) return null
    const name = `web-${newPairingCode()}`
    if (!(await this.store.answerDecision(link.id, { signedIn: name }, name))) return null
    const cookie = newSecret('sbw')
    const sender = await this.store.addSender({
      name,
      tokenHash: hashToken(cookie),
      status: 'allowed',
      operator: true,
      displayName: who.userAgent?.slice(0, 80) ?? 'browser',
    })
    return { cookie, sender }
  }

  /** The browser a cookie belongs to, while it is allowed. */
  async browser(cookie: string | undefined): Promise<Sender | null> {
    if (!cookie) return null
    const standingFor = this.standIns.get(cookie)
    const sender = standingFor
      ? await this.store.senderByName(standingFor)
      : await this.store.senderByToken(hashToken(cookie))
    return sender?.status === 'allowed' && sender.name.startsWith('web-') ? sender : null
  }
}
