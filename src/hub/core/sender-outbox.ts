// What the hub has to tell a sender (a reply, a permission prompt): stored first, so a sender who
// was away gets it when they come back, then handed to the surfaces that hold senders' live
// connections (the HTTP streams today). The core knows them only as listeners.
import type { OutboxItem, Store } from '../../store/store.js'

/** Shows a stored item on the sender's live connections, if any, and marks it shown. */
export type OutboxListener = (item: OutboxItem) => Promise<void>

export class SenderOutbox {
  private readonly listeners: OutboxListener[] = []

  constructor(private readonly store: Store) {}

  listen(listener: OutboxListener): void {
    this.listeners.push(listener)
  }

  async send(senderId: string, kind: string, body: Record<string, unknown>): Promise<void> {
    const item = await this.store.addOutbox(senderId, kind, body)
    for (const listener of this.listeners) await listener(item)
  }
}
