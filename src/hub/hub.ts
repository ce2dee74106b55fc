// The hub's core: publishes events to durable subscriber queues, routes replies back to the
// sender of a chat, and keeps the decisions operators answer. Transports (HTTP, WebSocket) call in.

import { randomBytes } from 'node:crypto'
import { HttpError } from '../core/errors.js'
import type { NewEvent, StoredEvent } from '../core/event.js'
import type { Behavior, PermissionRequest } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import type { Decision, PublishResult, Sender, StagedEvent, Store } from '../store/store.js'
import { Access } from './access.js'
import { Peers } from './peers.js'
import { SenderStreams } from './sender-streams.js'
import { type DeliverySink, SubscriberConnection } from './subscriber-connection.js'
import { toolCallText } from './tool-call-text.js'

export class Hub {
  readonly connections = new Map<string, SubscriberConnection>()
  readonly streams: SenderStreams
  readonly access: Access
  readonly peers: Peers
  private readonly resolvers = new Map<string, (d: Decision) => void>()
  /** Subscribers whose events a Claude Code hook takes (rung 3). */
  readonly hookFed = new Set<string>()
  private unwritten: { staged: StagedEvent; resolve(r: PublishResult): void; reject(e: unknown): void }[] = []
  /** Publishes under way, from staging to the end of their write. */
  private readonly publishing = new Set<Promise<PublishResult>>()

  constructor(
    readonly store: Store,
    readonly log: Logger,
  ) {
    this.streams = new SenderStreams(store)
    this.access = new Access(store)
    this.peers = new Peers(this)
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
    this.offerToConnected(staged)
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

  private async writeUnwritten(): Promise<void> {
    const batch = this.unwritten
    this.unwritten = []
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
   * topics, if given; its first pump() sends what waits for it.
   */
  async attach(
    name: string,
    sink: DeliverySink,
    options: { topics?: string[]; ackFlushMs?: number } = {},
  ): Promise<SubscriberConnection> {
    const stale = this.connections.get(name)
    if (stale) {
      stale.close()
      stale.terminate()
    }
    const connection = new SubscriberConnection(name, sink, this.store, this.log, {
      settled: () => this.settled(),
      ackFlushMs: options.ackFlushMs,
    })
    this.connections.set(name, connection)
    if (options.topics) await this.store.registerSubscriber(name, options.topics)
    return connection
  }

  /**
   * A subscriber inside the hub (a driven session, an outbound webhook): each event is handed to
   * `handle` in order and acknowledged once that resolves; one that fails stays unacknowledged.
   */
  async attachConsumer(name: string, handle: (event: StoredEvent) => Promise<void>): Promise<void> {
    let inOrder = Promise.resolve()
    const sink: DeliverySink = {
      send: (message) => {
        if (message.type !== 'deliver') return
        const { event } = message
        inOrder = inOrder
          .then(() => handle(event))
          .then(() => connection.ack(event.seq))
          .catch((err) => this.log.error({ err, subscriber: name, event: event.id }, 'event not handed over'))
      },
      terminate: () => {},
    }
    const connection = await this.attach(name, sink, { ackFlushMs: 0 })
    await connection.pump()
  }

  /**
   * Rung 3: a Claude Code hook asks for what waits for its session. A session whose channel takes
   * channel notifications gets nothing here (the channel delivers); otherwise the hook takes over:
   * the channel's pushes stop, and what is pending is handed over and acknowledged.
   */
  async takeForHook(subscriber: string): Promise<StoredEvent[]> {
    const connection = this.connections.get(subscriber)
    if (connection?.rung === 'channel') return []
    if (!(await this.store.hasSubscriber(subscriber))) await this.store.registerSubscriber(subscriber, ['*'])
    this.hookFed.add(subscriber)
    connection?.hold()
    await this.settled()
    const events = await this.store.pendingDeliveries(subscriber, 0, 100)
    if (events.length)
      await this.store.ack(
        subscriber,
        events.map((e) => e.seq),
      )
    return events
  }

  /** Claude's reply to a chat goes to whoever started that chat. */
  async reply(from: string, chatId: string, text: string): Promise<{ ok: boolean; message: string }> {
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
    await this.streams.send(sender.id, 'reply', { chat_id: chatId, text, from, at: Date.now() })
    return { ok: true, message: 'sent' }
  }

  /** A channel relays Claude Code's permission prompt: it becomes a decision operators see. */
  async requestPermission(subscriber: string, request: PermissionRequest): Promise<Decision> {
    const again = (await this.store.openDecisionsByCode('permission', request.request_id, Date.now())).find(
      (d) => d.owner === subscriber,
    )
    if (again) return again // the channel re-sent it after a reconnect
    const decision = await this.store.openDecision({
      kind: 'permission',
      code: request.request_id,
      owner: subscriber,
      request: { ...request },
      expiresAt: null,
    })
    const id = request.request_id
    await this.toOperators('permission', {
      id,
      session: subscriber,
      tool_name: request.tool_name,
      description: request.description,
      input_preview: request.input_preview,
      text: `${subscriber}: ${toolCallText(request.tool_name, request.input_preview, request.description)} — reply "yes ${id}" or "no ${id}"`,
    })
    return decision
  }

  /** An operator's `yes <id>` / `no <id>`. A wrong id changes nothing and says so. */
  async answerPermission(sender: Sender, code: string, behavior: Behavior): Promise<Decision> {
    if (!sender.operator) throw new HttpError(403, 'only operators may answer permission requests')
    const open = await this.store.openDecisionsByCode('permission', code, Date.now())
    const [decision] = open
    if (!decision) throw new HttpError(404, `no open permission request "${code}"; nothing was changed`)
    if (open.length > 1)
      throw new HttpError(
        409,
        `"${code}" is open in ${open.length} sessions at once; answer it in the terminal`,
      )
    return this.answer(decision, { behavior }, sender.name)
  }

  /**
   * Records the first answer to a decision and hands it to whoever waits for it: a driven session's
   * resolver, or the channel that relayed the prompt. Later answers get 409.
   */
  async answer(decision: Decision, answer: Record<string, unknown>, by: string): Promise<Decision> {
    const answered = await this.store.answerDecision(decision.id, answer, by)
    if (!answered) throw new HttpError(409, `"${decision.code}" was answered already`)
    this.log.info({ decision: answered.id, code: answered.code, by }, 'decision answered')
    const resolve = this.resolvers.get(answered.id)
    if (resolve) {
      this.resolvers.delete(answered.id)
      resolve(answered)
    } else if (answered.kind === 'permission') {
      await this.relayVerdict(answered)
    }
    await this.toOperators('decision', {
      id: answered.code,
      kind: answered.kind,
      session: answered.owner,
      status: 'answered',
      answer,
      answered_by: by,
    })
    return answered
  }

  /** A decision that someone in this process waits for (a driven session's tool call). */
  async openAwaited(
    input: { kind: Decision['kind']; owner: string; request: Record<string, unknown>; prompt: string },
    onAnswer: (d: Decision) => void,
  ): Promise<Decision> {
    const code = await this.freeCode()
    const decision = await this.store.openDecision({
      kind: input.kind,
      code,
      owner: input.owner,
      request: input.request,
      expiresAt: null,
    })
    this.resolvers.set(decision.id, onAnswer)
    await this.toOperators(input.kind, {
      id: code,
      decision: decision.id,
      session: input.owner,
      ...input.request,
      text: `${input.owner}: ${input.prompt} — reply "yes ${code}" or "no ${code}"`,
    })
    return decision
  }

  /** Stops waiting for decisions whose asker went away. */
  async cancelAwaited(ids: string[]): Promise<void> {
    for (const id of ids) this.resolvers.delete(id)
    if (ids.length) await this.store.cancelDecisions(ids)
  }

  private async freeCode(): Promise<string> {
    for (;;) {
      const code = permissionCode()
      const clash = (await this.store.openDecisionsByCode('permission', code, Date.now())).length
      if (!clash) return code
    }
  }

  /** Hands an answered permission to its channel now, or when it next connects. */
  async relayVerdict(decision: Decision): Promise<void> {
    const connection = this.connections.get(decision.owner)
    const behavior = decision.answer?.behavior as Behavior | undefined
    if (!connection || !behavior) return
    connection.send({ type: 'verdict', request_id: decision.code, behavior })
    await this.store.markRelayed(decision.id)
  }

  async relayPendingVerdicts(subscriber: string): Promise<void> {
    for (const d of await this.store.unrelayedAnswers('permission', subscriber)) await this.relayVerdict(d)
  }

  /** A channel that said goodbye has no terminal dialog left to answer. */
  async subscriberLeft(subscriber: string): Promise<void> {
    const n = await this.store.cancelOpenDecisions('permission', subscriber)
    if (n) this.log.info({ subscriber, cancelled: n }, 'open permission requests cancelled')
  }

  private async toOperators(kind: string, body: Record<string, unknown>): Promise<void> {
    const operators = (await this.store.listSenders()).filter((s) => s.operator && s.status === 'allowed')
    for (const op of operators) await this.streams.send(op.id, kind, body)
  }
}

/** Five letters a–z without l, like Claude Code's own request ids, so `yes <id>` reads the same. */
function permissionCode(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyz'
  let code = ''
  for (const b of randomBytes(5)) code += alphabet[b % alphabet.length]
  return code
}
