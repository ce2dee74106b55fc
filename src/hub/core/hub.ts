// The hub's core: publishes events to durable subscriber queues and routes replies back to the
// sender of a chat; access, peers and decisions hang off it. Transports (HTTP, WebSocket) call in.

import type { NewEvent, Scope, StoredEvent } from '../../core/event.js'
import type { ChatAction, ClientMessage } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import type { ReplyBody } from '../../core/outbox.js'
import type { Fence, Lease, PublishResult, StagedEvent, Store } from '../../store/store.js'
import { SessionDirectory } from '../names/session-directory.js'
import { SessionNames } from '../names/session-names.js'
import { Peers } from '../peers/peers.js'
import { Access } from '../people/access.js'
import { Decisions, type DecisionTimes } from '../people/decisions.js'
import { SenderOutbox } from '../people/sender-outbox.js'
import { type Interest, Projects } from '../projects/projects.js'
import type { ChatSurface, ReplyExtras } from './chat-surface.js'
import { HubEvents } from './hub-events.js'
import type { LeaseKeeper } from './lease-keeper.js'
import { SessionActivity } from './session-activity.js'
import { type DeliverySink, SubscriberConnection } from './subscriber-connection.js'

export type { RecordedReceipt } from './hub-events.js'

export class Hub {
  readonly connections = new Map<string, SubscriberConnection>()
  /** Replies and prompts for senders, stored before any surface shows them. */
  readonly outbox: SenderOutbox
  /** What the core tells the parts that show it (wired in hub/assemble.ts). */
  readonly events: HubEvents
  readonly access: Access
  readonly peers: Peers
  readonly decisions: Decisions
  /** Which subscriber name each Claude Code session answers to. */
  readonly names: SessionNames
  /** Which session a reference means, and what people call it. */
  readonly directory: SessionDirectory
  /** What project a folder is, and so what a session working there gets. */
  readonly projects: Projects
  /** Subscribers whose events a Claude Code hook takes (rung 3). */
  readonly hookFed = new Set<string>()
  /** Surfaces owning chats beyond the HTTP senders' own (chat bridges). */
  private readonly chatSurfaces = new Set<ChatSurface>()
  /** What sessions heard on this hub are doing (tool calls, text, turn ends), live: chats' progress. */
  readonly activity = new SessionActivity()
  private unwritten: { staged: StagedEvent; resolve(r: PublishResult): void; reject(e: unknown): void }[] = []
  /** A write is under way (see writeUnwritten). */
  private writing = false
  /** Publishes under way, from staging to the end of their write. */
  private readonly publishing = new Set<Promise<PublishResult>>()

  constructor(
    readonly store: Store,
    readonly log: Logger,
    /** The leases this hub holds among the hubs on its database (one hub alone holds them all). */
    readonly leases: LeaseKeeper,
    options: { routing?: () => Scope; decisionTimes?: () => DecisionTimes } = {},
  ) {
    this.projects = new Projects(log, options.routing)
    this.events = new HubEvents((what, err) => log.error({ err }, `${what} failed`))
    this.outbox = new SenderOutbox(store, this.events, (item, reason) =>
      log.warn(
        { item: item.id, sender: item.senderId, kind: item.kind, reason },
        'outbox item unreadable: skipped',
      ),
    )
    this.access = new Access(store, this.outbox)
    this.peers = new Peers(this)
    this.directory = new SessionDirectory(this)
    this.decisions = new Decisions(
      store,
      log,
      this.outbox,
      this.connections,
      this.directory,
      options.decisionTimes,
    )
    this.names = new SessionNames(this)
  }

  /** Connections of these subscribers (null: all) read the store again: another hub wrote for them. */
  wake(names: string[] | null): void {
    if (names === null) for (const connection of this.connections.values()) void connection.pump()
    else for (const name of names) void this.connections.get(name)?.pump()
  }

  /** A subscriber that is going away for good: its connection closes and it is forgotten. */
  async forget(name: string): Promise<void> {
    this.detach(name)
    await this.store.removeSubscriber(name)
  }

  /** Stops delivering to a subscriber here (what waits for it stays); `terminate` also drops its link. */
  detach(name: string, terminate = false): void {
    const connection = this.connections.get(name)
    if (!connection) return
    connection.close()
    if (terminate) connection.terminate()
    this.connections.delete(name)
  }

  /** A surface owning chats beyond the HTTP senders' own (a chat bridge's); returns what removes it. */
  addChatSurface(surface: ChatSurface): () => void {
    this.chatSurfaces.add(surface)
    return () => this.chatSurfaces.delete(surface)
  }

  /** A session ended: what shows it (a chat's thread for it) is told. */
  sessionEnded(session: string, reason: string | null): void {
    void this.events.sessionEnded.emit(session, reason)
  }

  isConnected(name: string): boolean {
    return this.connections.has(name)
  }

  /** The name of the channel connected here for this Claude Code session, if one is. */
  channelServing(claudeSession: string): string | null {
    for (const connection of this.connections.values())
      if (connection.claudeSession === claudeSession) return connection.name
    return null
  }

  /**
   * An event goes to its connected subscribers as soon as it is staged (id and seq given), before it
   * is written; events published in the same turn of the event loop share one commit (group
   * commit), and each sender hears 202 only after it. If a commit fails, a session may have seen an
   * event whose sender was told it failed: the sender's retry has the same id (it is derived from
   * the idempotency key), so the channel recognises it.
   */
  publish(event: NewEvent): Promise<PublishResult> {
    const publishing = this.stageAndWrite(event)
    this.publishing.add(publishing)
    const done = () => this.publishing.delete(publishing)
    publishing.then(done, done)
    return publishing
  }

  /** Resolves once every event whose publishing has begun is written or has failed. */
  settled(): Promise<void> {
    if (this.publishing.size === 0) return Promise.resolve()
    return Promise.allSettled([...this.publishing]).then(() => {})
  }

  private async stageAndWrite(event: NewEvent): Promise<PublishResult> {
    const [staged] = await this.store.stage([event])
    if (!staged) throw new Error('the store staged nothing')
    // A store shared by hubs gives seqs only as it writes, and another hub may have committed lower
    // seqs this hub has not read yet: its connections read them in order once written (written()).
    if (staged.event.seq > 0) this.offerToConnected(staged)
    return new Promise((resolve, reject) => {
      this.unwritten.push({ staged, resolve, reject })
      if (this.unwritten.length === 1) setImmediate(() => void this.writeUnwritten())
    })
  }

  /** A connection that cannot take the event now reads it from the store later; the write goes on. */
  private offerToConnected(staged: StagedEvent): void {
    for (const name of staged.subscribers) {
      try {
        this.connections.get(name)?.offer(staged.event)
      } catch (err) {
        this.log.error({ err, subscriber: name }, 'offer failed; the event stays queued')
      }
    }
  }

  /**
   * One write at a time: what is staged while a commit is under way goes into the next one. SQLite
   * commits before the next turn anyway; on a networked store this is what makes batches at all.
   */
  private async writeUnwritten(): Promise<void> {
    if (this.writing) return
    this.writing = true
    try {
      while (this.unwritten.length) await this.writeBatch(this.unwritten.splice(0))
    } finally {
      this.writing = false
    }
  }

  private async writeBatch(batch: typeof this.unwritten): Promise<void> {
    try {
      await this.store.write(batch.map((b) => b.staged))
      for (const { staged, resolve } of batch) resolve(staged)
    } catch (err) {
      for (const b of batch) b.reject(err)
    } finally {
      for (const { staged } of batch)
        for (const name of staged.subscribers) this.connections.get(name)?.written(staged.event.seq)
    }
  }

  /**
   * A subscriber connects: it takes over its name from a stale connection and is registered for its
   * topics, if given; its first pump() sends what waits for it. `claim`: a channel that connected
   * here takes its subscriber's lease from whichever hub held it, and that hub lets go of it.
   */
  async attach(
    name: string,
    sink: DeliverySink,
    options: {
      /** What it subscribes to (a channel: its topics, scoped to its project: Projects.interest). */
      interest?: Interest
      ackFlushMs?: number
      claim?: boolean
      fence?: Fence
      /** The Claude Code session a channel serves, and its working folder (its hello says). */
      claudeSession?: string
      folder?: string
    } = {},
  ): Promise<SubscriberConnection> {
    this.detach(name, true)
    // A claimed connection's reads are fenced once its lease is taken, below; it is in the map first
    // so that an attach racing this one closes it.
    let fence = options.fence
    const connection = new SubscriberConnection(name, sink, this.store, this.log, {
      settled: () => this.settled(),
      ackFlushMs: options.ackFlushMs,
      get fence() {
        return fence
      },
    })
    connection.claudeSession = options.claudeSession
    connection.folder = options.folder
    this.connections.set(name, connection)
    if (options.claim) {
      const lease = await this.leases.seize(name, (why) => {
        this.log.info(
          { subscriber: name },
          why === 'taken'
            ? 'the subscriber connected to another hub; its connection here ends'
            : 'this hub fenced itself: the subscriber’s connection here ends, so that it dials another hub',
        )
        if (this.connections.get(name) === connection) this.detach(name, true)
      })
      fence = { lease: lease.name, holder: lease.holder, epoch: lease.epoch }
    }
    if (options.interest) {
      const { topics, ...scoped } = options.interest
      await this.store.registerSubscriber(name, topics, scoped)
    }
    return connection
  }

  /**
   * A subscriber inside the hub (a driven session, an outbound webhook): each event is handed to
   * `handle` in order and acknowledged once that resolves; one that fails stays unacknowledged.
   */
  async attachConsumer(
    name: string,
    handle: (event: StoredEvent) => Promise<void>,
    lease?: Lease,
  ): Promise<void> {
    let inOrder = Promise.resolve()
    const sink: DeliverySink = {
      send: (message) => {
        if (message.type !== 'deliver') return
        const { event } = message
        // Acknowledged once written: an event handled as soon as it was offered (before its commit)
        // would have its ack delete nothing, and wait for this subscriber again after the commit.
        inOrder = inOrder
          .then(() => handle(event))
          .then(() => this.settled())
          .then(() => connection.ack(event.seq))
          .catch((err) => this.log.error({ err, subscriber: name, event: event.id }, 'event not handed over'))
      },
      terminate: () => {},
    }
    const fence = lease && { lease: lease.name, holder: lease.holder, epoch: lease.epoch }
    const connection = await this.attach(name, sink, { ackFlushMs: 0, fence })
    await connection.pump()
  }

  /**
   * Rung 3: a Claude Code hook asks for what waits for its session. A session whose channel takes
   * channel notifications gets nothing here (the channel delivers); otherwise the hook takes over:
   * the channel's pushes stop, and what is pending is handed over and acknowledged.
   */
  async takeForHook(subscriber: string, folder?: string): Promise<StoredEvent[]> {
    const connection = this.connections.get(subscriber)
    // The channel delivers (or will, once its session has set it up), but what it could not get into
    // Claude's context goes down the ladder.
    if (connection && connection.rung !== 'message')
      return this.store.takeUnconfirmed(subscriber, 100, Date.now())
    if (!(await this.store.hasSubscriber(subscriber))) {
      const { topics, ...scoped } = await this.projects.interest(folder)
      await this.store.registerSubscriber(subscriber, topics, scoped)
    }
    this.hookFed.add(subscriber)
    connection?.hold()
    await this.settled()
    const events = await this.store.pendingDeliveries(subscriber, 0, 100)
    if (events.length)
      await this.store.ack(
        subscriber,
        events.map((e) => e.seq),
        Date.now(),
      )
    return events
  }

  /**
   * What a hook took and never handed over (it gave up before the answer left): pending for the
   * session's next hook again (an unconfirmed one, for its hook again), and operators are told.
   */
  async handBack(subscriber: string, events: readonly StoredEvent[], reason: string): Promise<void> {
    await this.store.handBack(subscriber, events, reason, Date.now())
    this.log.warn({ subscriber, events: events.map((e) => e.id), reason }, 'events handed back')
    const ids = events.map((e) => e.id).join(', ')
    await this.tellOperators(
      subscriber,
      reason,
      `event${events.length === 1 ? '' : 's'} ${ids} not handed over: ${reason}`,
      events[0]?.id,
    )
  }

  /** A notice every operator gets about a session's deliveries: `text` after the session's name. */
  async tellOperators(subscriber: string, reason: string, text: string, event?: string): Promise<void> {
    const session = await this.directory.describe(subscriber)
    await this.decisions.toOperators({
      kind: 'notice',
      body: {
        session: session.key,
        session_name: session.name,
        ...(event ? { event } : {}),
        reason,
        text: `${session.name}: ${text}`,
      },
    })
  }

  /**
   * A subscriber's receipt for an event it was delivered (core/receipts.ts). One it could not get
   * into Claude's context after its tries is told to operators, naming the session and why; the
   * hook (takeForHook) and the channel's inbox take it from there.
   */
  async receipt(
    subscriber: string,
    r: Extract<ClientMessage, { type: 'receipt' }>,
    /** What becomes of an unconfirmed event, for operators. */
    after = "it waits for the session's hook and inbox",
  ): Promise<void> {
    const at = r.at ?? Date.now()
    await this.store.recordReceipt({
      eventId: r.event_id,
      subscriber,
      state: r.stage,
      at,
      tries: r.tries,
      reason: r.reason ?? null,
    })
    await this.events.receipt.emit(subscriber, { ...r, at })
    if (r.stage !== 'unconfirmed') return
    const why = r.reason ?? 'Claude Code did not take it into the conversation'
    this.log.warn({ subscriber, event: r.event_id, tries: r.tries, reason: why }, 'event unconfirmed')
    await this.tellOperators(
      subscriber,
      why,
      `event ${r.event_id} is not in Claude's context after ${r.tries} tr${r.tries === 1 ? 'y' : 'ies'} (${why}); ${after}`,
      r.event_id,
    )
  }

  /** Claude's reply to a chat goes to whoever started that chat, stored first. */
  async reply(
    from: string,
    chatId: string,
    text: string,
    extras: ReplyExtras = {},
  ): Promise<{ ok: boolean; message: string }> {
    const chat = await this.store.getChat(chatId)
    if (!chat?.senderId)
      return {
        ok: false,
        message: `unknown chat_id "${chatId}": pass the chat_id attribute of the <channel> tag you are answering`,
      }
    const sender = await this.store.senderById(chat.senderId)
    if (sender?.status !== 'allowed')
      return {
        ok: false,
        message: `the sender of chat "${chatId}" is no longer allowed; the reply was not sent`,
      }
    const surface = [...this.chatSurfaces].find((s) => s.owns(chat))
    if (!surface && (extras.files?.length || extras.replyTo))
      return { ok: false, message: `chat "${chatId}" takes text only (no files, no reply_to)` }
    const refused = await surface?.refuse(chat, extras)
    if (refused) return { ok: false, message: refused }
    const body: ReplyBody = {
      chat_id: chatId,
      text,
      from,
      // What people call the session that answers ("api · fix the flaky test"), not its key.
      from_name: (await this.directory.describe(from)).name,
      at: Date.now(),
      ...(extras.replyTo ? { reply_to: extras.replyTo } : {}),
      ...(extras.files?.length
        ? { files: extras.files, ...(extras.folder ? { folder: extras.folder } : {}) }
        : {}),
    }
    const shown = await this.outbox.send(sender.id, { kind: 'reply', body })
    return { ok: !shown?.refused, message: shown?.note ?? 'sent' }
  }

  /** React, edit, download or read history in a chat a surface owns. */
  async chatAction(from: string, action: ChatAction): Promise<{ ok: boolean; message: string }> {
    const chat = await this.store.getChat(action.chat_id)
    const surface = chat ? [...this.chatSurfaces].find((s) => s.owns(chat)) : undefined
    if (!chat || !surface)
      return {
        ok: false,
        message: `chat "${action.chat_id}" is not a bridged chat (Telegram, Discord or Slack): ${action.action} works only there`,
      }
    try {
      return await surface.act(chat, action, from)
    } catch (err) {
      return { ok: false, message: `${action.action} failed: ${(err as Error).message}` }
    }
  }
}
