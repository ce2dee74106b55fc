// What the hub's API reads of the store, as rows (core/api/rows.ts): channels and their backlog, the
// event log, webhook sources, outbound webhooks and their log, dead letters.

import type { EventDeliveries } from '../../core/api/contract.js'
import type {
  ChannelRow,
  DeadLetterRow,
  EventRow,
  OutboundLogRow,
  OutboundWebhookInfo,
  SourceRow,
} from '../../core/api/rows.js'
import { notFound } from '../../core/errors.js'
import type { StoredEvent } from '../../core/event.js'
import { isHubOwnSubscriber } from '../../core/hub-protocol.js'
import { type EventState, receiptView } from '../../core/receipts.js'
import type { Source } from '../../store/store.js'
import type { Hub } from './hub.js'

const EVENTS_PAGE = 50

/** Channel sessions: every subscriber but those inside the hub. */
export async function channelRows(hub: Hub): Promise<ChannelRow[]> {
  return (await hub.store.listSubscribers())
    .filter((s) => !isHubOwnSubscriber(s.name))
    .map((s) => ({
      name: s.name,
      connected: hub.isConnected(s.name),
      rung: hub.connections.get(s.name)?.rung ?? null,
      pending: s.pending,
      topics: s.topics,
    }))
}

/** Stored events, newest first, a page at a time, each with how far its deliveries got. */
export async function eventRows(
  hub: Hub,
  filter: {
    q?: string
    source?: string
    topic?: string
    subscriber?: string
    state?: EventState
    before?: number
    limit?: number
  },
): Promise<EventRow[]> {
  const events = await hub.store.findEvents({
    text: filter.q,
    source: filter.source,
    topic: filter.topic,
    subscriber: filter.subscriber,
    state: filter.state,
    beforeSeq: filter.before,
    limit: filter.limit ?? EVENTS_PAGE,
  })
  return Promise.all(
    events.map(async (e) => ({
      ...eventRow(e),
      deliveries: (await hub.store.eventReceipts(e.id)).map(receiptView),
    })),
  )
}

export function eventRow(e: StoredEvent): EventRow {
  return {
    seq: e.seq,
    id: e.id,
    topic: e.topic,
    source: e.source,
    sender: e.sender,
    content: e.content,
    meta: e.meta,
    createdAt: e.created_at,
  }
}

/** An event and how far each delivery of it got; `source`: only if it came from that webhook source. */
export async function eventDeliveries(hub: Hub, id: string, source?: string): Promise<EventDeliveries> {
  const event = await hub.store.eventById(id)
  if (!event || (source !== undefined && event.source !== source))
    throw notFound(`no event "${id}"${source === undefined ? '' : ` from source "${source}"`}`)
  const about = await hub.store.parkedAbout(id)
  return {
    event: eventRow(event),
    deliveries: (await hub.store.eventReceipts(id)).map(receiptView),
    parked: about === null ? null : { about },
  }
}

/** Webhook sources, never their secrets, with when each last sent an event. */
export async function sourceRows(hub: Hub): Promise<SourceRow[]> {
  return Promise.all((await hub.store.listSources()).map((s) => sourceRow(hub, s)))
}

/** A webhook source, never its secret, with when it last sent an event. */
export async function sourceRow(hub: Hub, s: Source): Promise<SourceRow> {
  return {
    name: s.name,
    topic: s.topic,
    preset: s.preset ?? 'generic',
    deliveryHeader: s.deliveryHeader,
    fieldMap: s.fieldMap ?? null,
    about: s.about ?? [],
    createdAt: s.createdAt,
    lastEventAt: (await hub.store.searchEvents({ source: s.name, limit: 1 }))[0]?.created_at ?? null,
  }
}

export async function outboundRows(hub: Hub): Promise<OutboundWebhookInfo[]> {
  const subscribers = new Map((await hub.store.listSubscribers()).map((s) => [s.name, s]))
  return (await hub.store.listOutboundWebhooks()).map((w) => ({
    name: w.name,
    url: w.url,
    topics: subscribers.get(w.name)?.topics ?? [],
    pending: subscribers.get(w.name)?.pending ?? 0,
    maxAttempts: w.maxAttempts,
    backoffMs: w.backoffMs,
    receipts: w.receipts,
    createdAt: w.createdAt,
  }))
}

export async function outboundLog(hub: Hub, name: string): Promise<OutboundLogRow[]> {
  return hub.store.outboundLog(name, 200)
}

export async function deadLetterRows(hub: Hub, kind?: string): Promise<DeadLetterRow[]> {
  return hub.store.listDeadLetters(kind)
}
