// The Store's push area: the hub's VAPID key pair (made once, shared by every hub on the database, so
// a browser's subscription works whichever hub sends), and the browsers' Web Push subscriptions.

/** The hub's application server keys (RFC 8292), base64url as the web-push library takes them. */
export interface PushKeys {
  publicKey: string
  privateKey: string
}

/** A browser's PushSubscription, kept for the operator it belongs to. */
export interface PushSubscriptionRecord {
  id: string
  /** The sender (a signed-in browser) that subscribed: pushes stop when it may no longer operate. */
  senderId: string
  /** The push service's URL for this browser: a capability, never shown whole. */
  endpoint: string
  /** The browser's P-256 public key and auth secret (base64url), that each payload is encrypted to. */
  p256dh: string
  auth: string
  /** The browser's user agent when it subscribed. */
  displayName: string | null
  createdAt: number
}

export interface PushStore {
  /** The stored key pair; `make()`'s when there is none yet (the first of two racing writers wins). */
  pushKeys(make: () => PushKeys): Promise<PushKeys>
  /** Stores a subscription; the same endpoint again replaces the one before (a browser subscribing again). */
  addPushSubscription(input: Omit<PushSubscriptionRecord, 'createdAt'>): Promise<PushSubscriptionRecord>
  /** Oldest first. */
  listPushSubscriptions(): Promise<PushSubscriptionRecord[]>
  /** False when there was none. */
  removePushSubscription(id: string): Promise<boolean>
}
