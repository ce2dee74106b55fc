// The embedded default store: one SQLite file in WAL mode, shared by the hub and the CLI.
import { chmodSync, existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { type NewEvent, type StoredEvent, topicMatches } from '../../core/event.js'
import { keyedEventId, newId } from '../../core/ids.js'
import type {
  Chat,
  DeadLetter,
  Decision,
  DecisionKind,
  DecisionStatus,
  OutboundAttempt,
  OutboundWebhook,
  OutboxItem,
  Sender,
  SenderStatus,
  SessionLine,
  SessionRecord,
  SessionStatus,
  Source,
  StagedEvent,
  Store,
  SubscriberInfo,
} from '../store.js'
import type { CheckpointerData } from './checkpointer.js'
import { migrations } from './migrations.js'

type Row = Record<string, unknown>
const PARKED = ''

export interface SqliteOptions {
  /** `full` fsyncs every commit (survives power loss); `normal` survives any process crash. */
  synchronous?: 'normal' | 'full'
  /**
   * `worker`: WAL checkpoints run in a worker thread every second instead of inside whichever commit
   * crosses SQLite's threshold (the hub's choice: its event loop delivers events). `auto`: SQLite's own.
   */
  checkpoints?: 'auto' | 'worker'
  /** Told when a background checkpoint fails (the log then grows until one succeeds). */
  onCheckpointError?: (message: string) => void
}

const CHECKPOINT_EVERY_MS = 1_000

export function openSqliteStore(file: string, options: SqliteOptions = {}): SqliteStore {
  const db = new Database(file)
  // It holds webhook secrets: owner only, also when an older version or a person loosened it.
  if (file !== ':memory:')
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600)
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`)
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  migrate(db)
  if (options.checkpoints !== 'worker' || file === ':memory:') return new SqliteStore(db, null)
  db.pragma('wal_autocheckpoint = 0')
  const data: CheckpointerData = { file, everyMs: CHECKPOINT_EVERY_MS }
  const checkpointer = new Worker(new URL('./checkpointer.js', import.meta.url), { workerData: data })
  checkpointer.unref()
  checkpointer.on('message', (m: { error?: string }) => m.error && options.onCheckpointError?.(m.error))
  checkpointer.on('error', (err) => options.onCheckpointError?.(err.message))
  return new SqliteStore(db, checkpointer)
}

function migrate(db: Database.Database): void {
  // IMMEDIATE takes the write lock first, so two processes opening a new file migrate once.
  const run = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number
    for (let v = version; v < migrations.length; v++) {
      db.exec(migrations[v] as string)
      db.pragma(`user_version = ${v + 1}`)
    }
  })
  run.immediate()
}

const toEvent = (r: Row): StoredEvent => ({
  id: r.id as string,
  seq: r.seq as number,
  topic: r.topic as string,
  source: r.source as string,
  sender: (r.sender as string | null) ?? null,
  chat_id: (r.chat_id as string | null) ?? null,
  content: r.content as string,
  meta: JSON.parse(r.meta as string),
  created_at: r.created_at as number,
})

/** Retention (see Store.prune), one batch of each; parked deliveries go before the events they hold. */
const PRUNE = [
  `DELETE FROM deliveries WHERE subscriber = '' AND seq IN
     (SELECT seq FROM events WHERE created_at < @before ORDER BY seq LIMIT @limit)`,
  `DELETE FROM events WHERE seq IN
     (SELECT e.seq FROM events e WHERE e.created_at < @before
        AND e.seq < (SELECT max(seq) FROM events)
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.seq = e.seq)
      ORDER BY e.seq LIMIT @limit)`,
  `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE created_at < @before ORDER BY id LIMIT @limit)`,
  `DELETE FROM decisions WHERE id IN (SELECT id FROM decisions WHERE status != 'open'
     AND coalesce(answered_at, created_at) < @before LIMIT @limit)`,
  `DELETE FROM session_events WHERE (session_id, seq) IN
     (SELECT session_id, seq FROM session_events WHERE at < @before LIMIT @limit)`,
  `DELETE FROM outbound_log WHERE id IN (SELECT id FROM outbound_log WHERE at < @before ORDER BY id LIMIT @limit)`,
  `DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters WHERE created_at < @before ORDER BY id LIMIT @limit)`,
]

const SUBSCRIBER_INFO = `SELECT s.name, s.topics, s.peer,
  (SELECT COUNT(*) FROM deliveries d WHERE d.subscriber = s.name) AS pending FROM subscribers s`

const toSubscriberInfo = (r: Row): SubscriberInfo => ({
  name: r.name as string,
  topics: JSON.parse(r.topics as string),
  peer: r.peer === 1,
  pending: r.pending as number,
})

const toSender = (r: Row): Sender => ({
  id: r.id as string,
  name: r.name as string,
  status: r.status as SenderStatus,
  operator: r.operator === 1,
  createdAt: r.created_at as number,
})

const toSource = (r: Row): Source => ({
  name: r.name as string,
  topic: r.topic as string,
  secret: r.secret as string,
  deliveryHeader: (r.delivery_header as string | null) ?? null,
  createdAt: r.created_at as number,
})

const toDecision = (r: Row): Decision => ({
  id: r.id as string,
  kind: r.kind as DecisionKind,
  code: r.code as string,
  owner: r.owner as string,
  status: r.status as DecisionStatus,
  request: JSON.parse(r.request as string),
  answer: r.answer ? JSON.parse(r.answer as string) : null,
  answeredBy: (r.answered_by as string | null) ?? null,
  createdAt: r.created_at as number,
  answeredAt: (r.answered_at as number | null) ?? null,
  expiresAt: (r.expires_at as number | null) ?? null,
})

const toSession = (r: Row): SessionRecord => ({
  id: r.id as string,
  claudeSessionId: (r.claude_session_id as string | null) ?? null,
  cwd: r.cwd as string,
  config: JSON.parse(r.config as string),
  status: r.status as SessionStatus,
  costUsd: r.cost_usd as number,
  turns: r.turns as number,
  lastResult: (r.last_result as string | null) ?? null,
  createdAt: r.created_at as number,
  updatedAt: r.updated_at as number,
})

const toOutbox = (r: Row): OutboxItem => ({
  id: r.id as number,
  senderId: r.sender_id as string,
  kind: r.kind as string,
  body: JSON.parse(r.body as string),
  createdAt: r.created_at as number,
})

export class SqliteStore implements Store {
  private subscribers: { name: string; topics: string[] }[] | null = null
  private readonly q
  private readonly writeTx: Database.Transaction<(staged: StagedEvent[]) => void>
  private readonly ackTx: Database.Transaction<(subscriber: string, seqs: number[]) => void>
  private readonly pruneTx: Database.Transaction<(before: number, limit: number) => number>
  /**
   * The next event's seq, kept here rather than taken from SQLite's rowid: subscribers see an event
   * before it is written (see stage), so a seq is never handed out twice, not even after a failed
   * transaction left it unused.
   */
  private nextSeq: number
  /** Keyed events staged and not written yet, by id, so a retry in the same instant is a duplicate too. */
  private readonly unwrittenKeyed = new Map<string, StoredEvent>()

  constructor(
    private readonly db: Database.Database,
    private readonly checkpointer: Worker | null,
  ) {
    const p = (sql: string) => db.prepare(sql)
    this.q = {
      keyedEvent: p('SELECT * FROM events WHERE id = ? AND idem_key IS NOT NULL'),
      insertEvent: p(
        `INSERT INTO events (seq, id, topic, source, sender, chat_id, target, content, meta, idem_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      maxSeq: p('SELECT coalesce(max(seq), 0) AS seq FROM events'),
      insertDelivery: p('INSERT OR IGNORE INTO deliveries (subscriber, seq) VALUES (?, ?)'),
      pending: p(
        `SELECT e.* FROM deliveries d JOIN events e ON e.seq = d.seq
         WHERE d.subscriber = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
      ),
      ack: p('DELETE FROM deliveries WHERE subscriber = ? AND seq = ?'),
      source: p('SELECT * FROM sources WHERE name = ?'),
      allSubscribers: p('SELECT name, topics FROM subscribers'),
    }
    this.nextSeq = this.maxSeq() + 1
    const prunes = PRUNE.map((sql) => db.prepare(sql))
    this.pruneTx = db.transaction((before: number, limit: number) =>
      prunes.reduce((n, statement) => n + statement.run({ before, limit }).changes, 0),
    )
    this.ackTx = db.transaction((subscriber: string, seqs: number[]) => {
      for (const seq of seqs) this.q.ack.run(subscriber, seq)
    })
    this.writeTx = db.transaction((staged: StagedEvent[]) => {
      for (const s of staged) {
        if (s.duplicate) continue
        const { event: e, target, idempotencyKey } = s
        // Decided again now: a subscriber that registered since the event was staged gets it too.
        s.subscribers = this.subscribersOf(e.topic, target)
        this.q.insertEvent.run(
          e.seq,
          e.id,
          e.topic,
          e.source,
          e.sender,
          e.chat_id,
          target,
          e.content,
          JSON.stringify(e.meta),
          idempotencyKey,
          e.created_at,
        )
        for (const name of s.subscribers) this.q.insertDelivery.run(name, e.seq)
        if (s.subscribers.length === 0) this.q.insertDelivery.run(PARKED, e.seq)
      }
    })
  }

  private maxSeq(): number {
    return (this.q.maxSeq.get() as { seq: number }).seq
  }

  async close(): Promise<void> {
    if (this.checkpointer) {
      const exited = new Promise((resolve) => this.checkpointer?.once('exit', resolve))
      this.checkpointer.postMessage('stop')
      await exited
    }
    this.db.close()
  }

  // --- sources ---------------------------------------------------------------
  async addSource(s: Omit<Source, 'createdAt'>): Promise<Source> {
    const createdAt = Date.now()
    this.db
      .prepare(
        'INSERT INTO sources (name, topic, secret, delivery_header, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(s.name, s.topic, s.secret, s.deliveryHeader, createdAt)
    return { ...s, createdAt }
  }

  async getSource(name: string): Promise<Source | null> {
    const r = this.q.source.get(name) as Row | undefined
    return r ? toSource(r) : null
  }

  async listSources(): Promise<Source[]> {
    return (this.db.prepare('SELECT * FROM sources ORDER BY name').all() as Row[]).map(toSource)
  }

  async removeSource(name: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM sources WHERE name = ?').run(name).changes > 0
  }

  // --- events and delivery -----------------------------------------------------
  private loadSubscribers(): { name: string; topics: string[] }[] {
    this.subscribers ??= (this.q.allSubscribers.all() as Row[]).map((r) => ({
      name: r.name as string,
      topics: JSON.parse(r.topics as string) as string[],
    }))
    return this.subscribers
  }

  async stage(events: NewEvent[]): Promise<StagedEvent[]> {
    return events.map((e) => {
      const keyedId = e.idempotencyKey === null ? null : keyedEventId(e.source, e.sender, e.idempotencyKey)
      const earlier = keyedId === null ? null : this.earlierTry(keyedId)
      if (earlier)
        return { event: earlier, duplicate: true, subscribers: [], target: null, idempotencyKey: null }
      const event: StoredEvent = {
        id: keyedId ?? newId('ev'),
        seq: this.nextSeq++,
        topic: e.topic,
        source: e.source,
        sender: e.sender,
        chat_id: e.chat_id,
        content: e.content,
        meta: e.meta,
        created_at: Date.now(),
      }
      if (keyedId !== null) this.unwrittenKeyed.set(keyedId, event)
      const subscribers = this.subscribersOf(e.topic, e.target)
      return { event, duplicate: false, subscribers, target: e.target, idempotencyKey: e.idempotencyKey }
    })
  }

  private subscribersOf(topic: string, target: string | null): string[] {
    if (target) return [target]
    return this.loadSubscribers()
      .filter((s) => topicMatches(s.topics, topic))
      .map((s) => s.name)
  }

  /** The keyed event with this id: staged a moment ago, or stored. */
  private earlierTry(id: string): StoredEvent | null {
    const staged = this.unwrittenKeyed.get(id)
    if (staged) return staged
    const row = this.q.keyedEvent.get(id) as Row | undefined
    return row ? toEvent(row) : null
  }

  async write(staged: StagedEvent[]): Promise<void> {
    try {
      this.writeTx.immediate(staged)
    } catch (err) {
      this.nextSeq = Math.max(this.nextSeq, this.maxSeq() + 1) // in case another writer took seqs
      throw err
    } finally {
      for (const s of staged) if (s.idempotencyKey !== null) this.unwrittenKeyed.delete(s.event.id)
    }
  }

  async registerSubscriber(name: string, topics: string[], options: { peer?: boolean } = {}): Promise<void> {
    const now = Date.now()
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `INSERT INTO subscribers (name, topics, peer, created_at, seen_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET topics = excluded.topics, peer = excluded.peer,
               seen_at = excluded.seen_at`,
          )
          .run(name, JSON.stringify(topics), options.peer === false ? 0 : 1, now, now)
        const parked = this.db
          .prepare(
            'SELECT d.seq, e.topic FROM deliveries d JOIN events e ON e.seq = d.seq WHERE d.subscriber = ?',
          )
          .all(PARKED) as { seq: number; topic: string }[]
        const claim = this.db.prepare('UPDATE deliveries SET subscriber = ? WHERE subscriber = ? AND seq = ?')
        for (const p of parked) if (topicMatches(topics, p.topic)) claim.run(name, PARKED, p.seq)
      })
      .immediate()
    this.subscribers = null
  }

  async pendingDeliveries(subscriber: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return (this.q.pending.all(subscriber, afterSeq, limit) as Row[]).map(toEvent)
  }

  async ack(subscriber: string, seqs: number[]): Promise<void> {
    this.ackTx(subscriber, seqs)
  }

  async prune(before: number, limit: number): Promise<number> {
    return this.pruneTx(before, limit)
  }

  async listSubscribers(): Promise<SubscriberInfo[]> {
    return (this.db.prepare(`${SUBSCRIBER_INFO} ORDER BY s.name`).all() as Row[]).map(toSubscriberInfo)
  }

  async getSubscriber(name: string): Promise<SubscriberInfo | null> {
    const r = this.db.prepare(`${SUBSCRIBER_INFO} WHERE s.name = ?`).get(name) as Row | undefined
    return r ? toSubscriberInfo(r) : null
  }

  // --- senders, chats, outbox --------------------------------------------------
  async addSender(input: {
    name: string
    tokenHash: string
    status: SenderStatus
    operator: boolean
  }): Promise<Sender> {
    const sender: Sender = {
      id: newId('snd'),
      name: input.name,
      status: input.status,
      operator: input.operator,
      createdAt: Date.now(),
    }
    this.db
      .prepare(
        'INSERT INTO senders (id, name, token_hash, status, operator, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(sender.id, sender.name, input.tokenHash, sender.status, sender.operator ? 1 : 0, sender.createdAt)
    return sender
  }

  private senderWhere(clause: string, value: string): Sender | null {
    const r = this.db.prepare(`SELECT * FROM senders WHERE ${clause} = ?`).get(value) as Row | undefined
    return r ? toSender(r) : null
  }

  async senderByToken(tokenHash: string): Promise<Sender | null> {
    return this.senderWhere('token_hash', tokenHash)
  }

  async senderByName(name: string): Promise<Sender | null> {
    return this.senderWhere('name', name)
  }

  async senderById(id: string): Promise<Sender | null> {
    return this.senderWhere('id', id)
  }

  async listSenders(): Promise<Sender[]> {
    return (this.db.prepare('SELECT * FROM senders ORDER BY created_at').all() as Row[]).map(toSender)
  }

  async updateSender(
    id: string,
    change: { status?: SenderStatus; operator?: boolean; name?: string },
  ): Promise<void> {
    if (change.status) this.db.prepare('UPDATE senders SET status = ? WHERE id = ?').run(change.status, id)
    if (change.operator !== undefined)
      this.db.prepare('UPDATE senders SET operator = ? WHERE id = ?').run(change.operator ? 1 : 0, id)
    if (change.name) this.db.prepare('UPDATE senders SET name = ? WHERE id = ?').run(change.name, id)
  }

  async removeSender(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM senders WHERE id = ?').run(id).changes > 0
  }

  async countOperators(): Promise<number> {
    const r = this.db
      .prepare(`SELECT COUNT(*) AS n FROM senders WHERE operator = 1 AND status = 'allowed'`)
      .get() as { n: number }
    return r.n
  }

  async chatFor(source: string, senderId: string): Promise<Chat> {
    const r = this.db
      .prepare('SELECT id FROM chats WHERE source = ? AND sender_id = ?')
      .get(source, senderId) as Row | undefined
    if (r) return { id: r.id as string, source, senderId }
    const id = newId('chat')
    this.db
      .prepare('INSERT INTO chats (id, source, sender_id, created_at) VALUES (?, ?, ?, ?)')
      .run(id, source, senderId, Date.now())
    return { id, source, senderId }
  }

  async getChat(id: string): Promise<Chat | null> {
    const r = this.db.prepare('SELECT * FROM chats WHERE id = ?').get(id) as Row | undefined
    return r
      ? { id: r.id as string, source: r.source as string, senderId: (r.sender_id as string | null) ?? null }
      : null
  }

  async addOutbox(senderId: string, kind: string, body: Record<string, unknown>): Promise<OutboxItem> {
    const createdAt = Date.now()
    const info = this.db
      .prepare('INSERT INTO outbox (sender_id, kind, body, created_at) VALUES (?, ?, ?, ?)')
      .run(senderId, kind, JSON.stringify(body), createdAt)
    return { id: Number(info.lastInsertRowid), senderId, kind, body, createdAt }
  }

  async outboxFor(senderId: string, afterId: number | null): Promise<OutboxItem[]> {
    const rows =
      afterId === null
        ? this.db
            .prepare('SELECT * FROM outbox WHERE sender_id = ? AND streamed = 0 ORDER BY id')
            .all(senderId)
        : this.db
            .prepare('SELECT * FROM outbox WHERE sender_id = ? AND id > ? ORDER BY id')
            .all(senderId, afterId)
    return (rows as Row[]).map(toOutbox)
  }

  async markStreamed(ids: number[]): Promise<void> {
    const mark = this.db.prepare('UPDATE outbox SET streamed = 1 WHERE id = ?')
    this.db.transaction(() => {
      for (const id of ids) mark.run(id)
    })()
  }

  // --- decisions ---------------------------------------------------------------
  async openDecision(input: {
    kind: DecisionKind
    code: string
    owner: string
    request: Record<string, unknown>
    expiresAt: number | null
  }): Promise<Decision> {
    const d: Decision = {
      id: newId('dec'),
      kind: input.kind,
      code: input.code,
      owner: input.owner,
      status: 'open',
      request: input.request,
      answer: null,
      answeredBy: null,
      createdAt: Date.now(),
      answeredAt: null,
      expiresAt: input.expiresAt,
    }
    this.db
      .prepare(
        `INSERT INTO decisions (id, kind, code, owner, status, request, created_at, expires_at)
         VALUES (?, ?, ?, ?, 'open', ?, ?, ?)`,
      )
      .run(d.id, d.kind, d.code, d.owner, JSON.stringify(d.request), d.createdAt, d.expiresAt)
    return d
  }

  async openDecisionsByCode(kind: DecisionKind, code: string, now: number): Promise<Decision[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM decisions WHERE kind = ? AND code = ? AND status = 'open'
         AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC`,
      )
      .all(kind, code, now) as Row[]
    return rows.map(toDecision)
  }

  async answerDecision(
    id: string,
    answer: Record<string, unknown>,
    answeredBy: string,
  ): Promise<Decision | null> {
    const changed = this.db
      .prepare(
        `UPDATE decisions SET status = 'answered', answer = ?, answered_by = ?, answered_at = ?
         WHERE id = ? AND status = 'open'`,
      )
      .run(JSON.stringify(answer), answeredBy, Date.now(), id).changes
    if (changed === 0) return null
    return toDecision(this.db.prepare('SELECT * FROM decisions WHERE id = ?').get(id) as Row)
  }

  async unrelayedAnswers(kind: DecisionKind, owner: string): Promise<Decision[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM decisions WHERE kind = ? AND owner = ? AND status = 'answered' AND relayed = 0
         ORDER BY answered_at`,
      )
      .all(kind, owner) as Row[]
    return rows.map(toDecision)
  }

  async markRelayed(id: string): Promise<void> {
    this.db.prepare('UPDATE decisions SET relayed = 1 WHERE id = ?').run(id)
  }

  async cancelOpenDecisions(kind: DecisionKind, owner: string): Promise<number> {
    return this.db
      .prepare(`UPDATE decisions SET status = 'cancelled' WHERE kind = ? AND owner = ? AND status = 'open'`)
      .run(kind, owner).changes
  }

  async cancelDecisions(ids: string[]): Promise<void> {
    const cancel = this.db.prepare(
      `UPDATE decisions SET status = 'cancelled' WHERE id = ? AND status = 'open'`,
    )
    this.db.transaction(() => {
      for (const id of ids) cancel.run(id)
    })()
  }

  async expireDecisions(now: number): Promise<Decision[]> {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT * FROM decisions WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= ?`,
        )
        .all(now) as Row[]
      const expire = this.db.prepare(`UPDATE decisions SET status = 'expired' WHERE id = ?`)
      for (const r of rows) expire.run(r.id)
      return rows.map((r) => ({ ...toDecision(r), status: 'expired' as const }))
    })()
  }

  async countOpen(kind: DecisionKind, now: number): Promise<number> {
    const r = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM decisions WHERE kind = ? AND status = 'open'
         AND (expires_at IS NULL OR expires_at > ?)`,
      )
      .get(kind, now) as { n: number }
    return r.n
  }

  async listDecisions(filter: { kind?: DecisionKind; status?: DecisionStatus }): Promise<Decision[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM decisions WHERE (@kind IS NULL OR kind = @kind) AND (@status IS NULL OR status = @status)
         ORDER BY created_at DESC LIMIT 500`,
      )
      .all({ kind: filter.kind ?? null, status: filter.status ?? null }) as Row[]
    return rows.map(toDecision)
  }

  async getDecision(id: string): Promise<Decision | null> {
    const r = this.db.prepare('SELECT * FROM decisions WHERE id = ?').get(id) as Row | undefined
    return r ? toDecision(r) : null
  }

  // --- driven sessions -----------------------------------------------------------
  async createSession(input: {
    id: string
    cwd: string
    config: Record<string, unknown>
    status: SessionStatus
  }): Promise<SessionRecord> {
    const now = Date.now()
    this.db
      .prepare(
        `INSERT INTO sessions (id, cwd, config, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(input.id, input.cwd, JSON.stringify(input.config), input.status, now, now)
    return (await this.getSession(input.id)) as SessionRecord
  }

  async updateSession(
    id: string,
    change: Partial<
      Pick<SessionRecord, 'claudeSessionId' | 'status' | 'costUsd' | 'turns' | 'lastResult' | 'config'>
    >,
  ): Promise<void> {
    const columns: Record<string, unknown> = {}
    if (change.claudeSessionId !== undefined) columns.claude_session_id = change.claudeSessionId
    if (change.status !== undefined) columns.status = change.status
    if (change.costUsd !== undefined) columns.cost_usd = change.costUsd
    if (change.turns !== undefined) columns.turns = change.turns
    if (change.lastResult !== undefined) columns.last_result = change.lastResult
    if (change.config !== undefined) columns.config = JSON.stringify(change.config)
    const keys = Object.keys(columns)
    if (keys.length === 0) return
    const set = keys.map((k) => `${k} = @${k}`).join(', ')
    this.db
      .prepare(`UPDATE sessions SET ${set}, updated_at = @now WHERE id = @id`)
      .run({ ...columns, now: Date.now(), id })
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    const r = this.db.prepare('SELECT * FROM sessions WHERE id = ? OR claude_session_id = ?').get(id, id) as
      | Row
      | undefined
    return r ? toSession(r) : null
  }

  async listSessions(): Promise<SessionRecord[]> {
    return (this.db.prepare('SELECT * FROM sessions ORDER BY updated_at DESC').all() as Row[]).map(toSession)
  }

  async appendSessionLine(id: string, line: Record<string, unknown>): Promise<number> {
    return this.db.transaction(() => {
      const { next } = this.db
        .prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM session_events WHERE session_id = ?')
        .get(id) as { next: number }
      this.db
        .prepare('INSERT INTO session_events (session_id, seq, line, at) VALUES (?, ?, ?, ?)')
        .run(id, next, JSON.stringify(line), Date.now())
      return next
    })()
  }

  async sessionLines(id: string, afterSeq: number, limit: number): Promise<SessionLine[]> {
    const rows = this.db
      .prepare(
        'SELECT seq, line, at FROM session_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .all(id, afterSeq, limit) as Row[]
    return rows.map((r) => ({ seq: r.seq as number, line: JSON.parse(r.line as string), at: r.at as number }))
  }

  async hasSubscriber(name: string): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM subscribers WHERE name = ?').get(name) !== undefined
  }

  // --- peers -----------------------------------------------------------------------
  async setAlias(alias: string, name: string): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO peer_aliases (alias, name) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET name = excluded.name',
      )
      .run(alias, name)
  }

  async resolveAlias(alias: string): Promise<string | null> {
    const r = this.db.prepare('SELECT name FROM peer_aliases WHERE alias = ?').get(alias) as Row | undefined
    return r ? (r.name as string) : null
  }

  async aliasesOf(name: string): Promise<string[]> {
    return (
      this.db.prepare('SELECT alias FROM peer_aliases WHERE name = ? ORDER BY alias').all(name) as Row[]
    ).map((r) => r.alias as string)
  }

  async joinRoom(room: string, member: string): Promise<void> {
    this.db
      .prepare('INSERT OR IGNORE INTO rooms (room, member, joined_at) VALUES (?, ?, ?)')
      .run(room, member, Date.now())
  }

  async leaveRoom(room: string, member: string): Promise<void> {
    this.db.prepare('DELETE FROM rooms WHERE room = ? AND member = ?').run(room, member)
  }

  async roomMembers(room: string): Promise<string[]> {
    return (
      this.db.prepare('SELECT member FROM rooms WHERE room = ? ORDER BY member').all(room) as Row[]
    ).map((r) => r.member as string)
  }

  async roomsOf(member: string): Promise<string[]> {
    return (
      this.db.prepare('SELECT room FROM rooms WHERE member = ? ORDER BY room').all(member) as Row[]
    ).map((r) => r.room as string)
  }

  async addDeadLetter(input: Omit<DeadLetter, 'id' | 'createdAt'>): Promise<DeadLetter> {
    const createdAt = Date.now()
    const info = this.db
      .prepare('INSERT INTO dead_letters (kind, target, payload, reason, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(input.kind, input.target, JSON.stringify(input.payload), input.reason, createdAt)
    return { ...input, id: Number(info.lastInsertRowid), createdAt }
  }

  async listDeadLetters(kind?: string): Promise<DeadLetter[]> {
    const rows = this.db
      .prepare('SELECT * FROM dead_letters WHERE (@kind IS NULL OR kind = @kind) ORDER BY id DESC LIMIT 500')
      .all({ kind: kind ?? null }) as Row[]
    return rows.map((r) => ({
      id: r.id as number,
      kind: r.kind as string,
      target: r.target as string,
      payload: JSON.parse(r.payload as string),
      reason: r.reason as string,
      createdAt: r.created_at as number,
    }))
  }

  // --- outbound webhooks -------------------------------------------------------------
  async addOutboundWebhook(input: Omit<OutboundWebhook, 'createdAt'>): Promise<OutboundWebhook> {
    const createdAt = Date.now()
    this.db
      .prepare(
        'INSERT INTO outbound_webhooks (name, url, secret, max_attempts, backoff_ms, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(input.name, input.url, input.secret, input.maxAttempts, input.backoffMs, createdAt)
    return { ...input, createdAt }
  }

  async listOutboundWebhooks(): Promise<OutboundWebhook[]> {
    return (this.db.prepare('SELECT * FROM outbound_webhooks ORDER BY created_at').all() as Row[]).map(
      (r) => ({
        name: r.name as string,
        url: r.url as string,
        secret: r.secret as string,
        maxAttempts: r.max_attempts as number,
        backoffMs: r.backoff_ms as number,
        createdAt: r.created_at as number,
      }),
    )
  }

  async logOutbound(a: Omit<OutboundAttempt, 'at'>): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO outbound_log (webhook, event_id, attempt, status, error, at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(a.webhook, a.eventId, a.attempt, a.status, a.error, Date.now())
  }

  async outboundLog(webhook: string, limit: number): Promise<OutboundAttempt[]> {
    const rows = this.db
      .prepare('SELECT * FROM outbound_log WHERE webhook = ? ORDER BY id DESC LIMIT ?')
      .all(webhook, limit) as Row[]
    return rows.map((r) => ({
      webhook: r.webhook as string,
      eventId: r.event_id as string,
      attempt: r.attempt as number,
      status: (r.status as number | null) ?? null,
      error: (r.error as string | null) ?? null,
      at: r.at as number,
    }))
  }
}
