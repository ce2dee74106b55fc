// The Store's leases area: work that one hub at a time may do (a chat bridge's bot, retention, a
// driven session, delivering to one subscriber), held for a while and renewed, taken over by another
// hub once its holder stops renewing. The epoch grows with every change of hands, so a hub that lost
// a lease can be told from the one that holds it now.

export interface Lease {
  name: string
  /** The hub holding it (a hub's id: see hub/cluster). */
  holder: string
  epoch: number
  /** Ms since epoch; a lease not renewed by then is free. */
  expiresAt: number
  /** What the holder says of itself, e.g. a hub's address on its own lease. */
  note: string | null
}

export interface LeaseStore {
  /**
   * Takes `name` for `holder` until `now + ttlMs` when it is free, expired, or `holder`'s already
   * (renewed, same epoch; a change of hands gets the next epoch). Null: another holder's lease is live.
   */
  acquireLease(
    name: string,
    holder: string,
    ttlMs: number,
    now: number,
    note?: string | null,
  ): Promise<Lease | null>
  /** Takes `name` for `holder` whoever holds it, with the next epoch (a subscriber that connected here). */
  seizeLease(name: string, holder: string, ttlMs: number, now: number): Promise<Lease>
  /** Renews every live lease `holder` holds; returns their names (one that lapsed is not revived). */
  renewLeases(holder: string, ttlMs: number, now: number): Promise<string[]>
  /** Frees a lease `holder` holds, for another hub to take at once; the epoch is kept. */
  releaseLease(name: string, holder: string): Promise<void>
  getLease(name: string): Promise<Lease | null>
  /** Leases whose names start with `prefix`, by name. */
  listLeases(prefix: string): Promise<Lease[]>
}
