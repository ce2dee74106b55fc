// Which subscriber name each Claude Code session answers to: the queue its channel reads and its hooks
// take from. A name is bound to one session when the hub first hears of it and never named again by a
// later request: a hook acts only for the session that registered itself, and two sessions never share
// a queue (two folders called `api` get `api` and `api-2`). A channel and the hooks of one session share
// its name: the channel says which Claude Code session it serves (CLAUDE_CODE_SESSION_ID).
import { defaultSubscriberName } from '../../core/subscriber-name.js'
import type { Store } from '../../store/store.js'

/** What of the hub tells who holds a name: its connections, the other hubs' leases, the store. */
export interface NameHolders {
  readonly store: Pick<Store, 'getTerminalSession' | 'terminalSessionsNamed'>
  /** The other hubs' leases (the core's LeaseKeeper), named by what is asked of them: names sit below the core. */
  readonly leases: { connectedElsewhere(subscriber: string): Promise<boolean> }
  readonly connections: ReadonlyMap<string, { readonly claudeSession: string | undefined }>
  /** The channel connected here for a Claude Code session, if one is. */
  channelServing(claudeSession: string): string | null
}

/** A session at a terminal heard from this recently still holds its name (SessionEnd may never come). */
export const NAME_HELD_MS = 24 * 60 * 60 * 1000

export class SessionNames {
  /** Bound names by Claude Code session id, as the store has them (read once a session). */
  private readonly bound = new Map<string, string>()

  constructor(private readonly hub: NameHolders) {}

  /** The name a session's hooks act for: bound when the session was first heard of. */
  async ofHookSession(session: string, folder: string, asked: string | null): Promise<string> {
    const known = this.bound.get(session) ?? (await this.hub.store.getTerminalSession(session))?.name
    if (known) {
      this.bound.set(session, known)
      return known
    }
    const name =
      this.hub.channelServing(session) ??
      (asked && !(await this.heldByAnother(asked, session)) ? asked : null) ??
      (await this.free(defaultSubscriberName(folder), session))
    this.bound.set(session, name)
    return name
  }

  /** The session ended: its name is free again (the store's record says so too). */
  forget(session: string): void {
    this.bound.delete(session)
  }

  /** `wanted`, or `wanted-2`, `-3`…: the first name no other session holds. */
  async free(wanted: string, session: string | null): Promise<string> {
    if (!(await this.heldByAnother(wanted, session))) return wanted
    for (let i = 2; ; i++) if (!(await this.heldByAnother(`${wanted}-${i}`, session))) return `${wanted}-${i}`
  }

  /**
   * Another session answers to `name`: a channel connected here or to another hub (of another Claude
   * Code session, when both say which), or a session at a terminal that was bound to it and has not
   * ended. `session`: the one asking (null: a channel that does not know its session).
   */
  private async heldByAnother(name: string, session: string | null): Promise<boolean> {
    const channel = this.hub.connections.get(name)
    if (channel && (session === null || channel.claudeSession !== session)) return true
    if (!channel && (await this.hub.leases.connectedElsewhere(name))) return true
    const now = Date.now()
    return (await this.hub.store.terminalSessionsNamed(name)).some(
      (t) => t.sessionId !== session && t.status === 'running' && now - t.lastSeenAt < NAME_HELD_MS,
    )
  }
}
