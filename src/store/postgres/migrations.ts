// Schema versions for Postgres, applied in order at start under an advisory lock (see index.ts);
// schema_version records progress. The tables match SQLite's (sqlite/migrations.ts) column for
// column; times are ms since epoch as BIGINT, JSON is kept as text, as it came.
export const migrations: string[] = [
  `
  CREATE TABLE sources (
    name TEXT PRIMARY KEY,
    topic TEXT NOT NULL,
    secret TEXT NOT NULL,
    delivery_header TEXT,
    preset TEXT NOT NULL DEFAULT 'generic',
    field_map TEXT,
    created_at BIGINT NOT NULL
  );
  -- Seqs are handed out by the transaction that writes the events, holding this row's lock until it
  -- commits: seq order is commit order on every hub, so a reader that saw seq n missed nothing below.
  CREATE TABLE event_seq (
    one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
    last BIGINT NOT NULL
  );
  INSERT INTO event_seq (last) VALUES (0);
  CREATE TABLE events (
    seq BIGINT PRIMARY KEY,
    id TEXT NOT NULL,
    topic TEXT NOT NULL,
    source TEXT NOT NULL,
    sender TEXT,
    chat_id TEXT,
    target TEXT,
    content TEXT NOT NULL,
    meta TEXT NOT NULL,
    idem_key TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE UNIQUE INDEX events_keyed ON events (id) WHERE idem_key IS NOT NULL;
  CREATE TABLE subscribers (
    name TEXT PRIMARY KEY,
    topics TEXT NOT NULL,
    peer BOOLEAN NOT NULL DEFAULT true,
    parked_seq BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL
  );
  -- One row per (subscriber, event) until acknowledged; subscriber '' parks an event no one wanted yet.
  CREATE TABLE deliveries (
    subscriber TEXT NOT NULL,
    seq BIGINT NOT NULL REFERENCES events(seq),
    PRIMARY KEY (subscriber, seq)
  );
  -- For the reference: without it, deleting an old event would scan every delivery.
  CREATE INDEX deliveries_seq ON deliveries (seq);
  CREATE TABLE senders (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('allowed','pending','blocked')),
    operator BOOLEAN NOT NULL DEFAULT false,
    display_name TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE chats (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    sender_id TEXT,
    created_at BIGINT NOT NULL,
    UNIQUE (source, sender_id)
  );
  CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    sender_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    streamed BOOLEAN NOT NULL DEFAULT false,
    receipt TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX outbox_sender ON outbox (sender_id, id);
  CREATE TABLE decisions (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    code TEXT NOT NULL,
    owner TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open','answered','expired','cancelled')),
    request TEXT NOT NULL,
    answer TEXT,
    answered_by TEXT,
    relayed BOOLEAN NOT NULL DEFAULT false,
    created_at BIGINT NOT NULL,
    answered_at BIGINT,
    expires_at BIGINT
  );
  CREATE INDEX decisions_open ON decisions (kind, code) WHERE status = 'open';
  CREATE INDEX decisions_owner ON decisions (kind, owner, status);
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    claude_session_id TEXT,
    cwd TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    last_result TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE session_events (
    session_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    line TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE TABLE rooms (
    room TEXT NOT NULL,
    member TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (room, member)
  );
  CREATE TABLE dead_letters (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    payload TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE peer_aliases (
    alias TEXT PRIMARY KEY,
    name TEXT NOT NULL
  );
  CREATE TABLE outbound_webhooks (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    max_attempts INTEGER NOT NULL,
    backoff_ms INTEGER NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE outbound_log (
    id BIGSERIAL PRIMARY KEY,
    webhook TEXT NOT NULL,
    event_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    at BIGINT NOT NULL
  );
  CREATE INDEX outbound_log_webhook ON outbound_log (webhook, id);
  CREATE TABLE rules (
    id TEXT PRIMARY KEY,
    tool_name TEXT NOT NULL,
    input TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('session','folder','everywhere')),
    scope_value TEXT,
    expires_at BIGINT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    uses INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX rules_tool ON rules (tool_name);
  `,
  `
  -- Work one hub at a time may do, held for a while and renewed (see store/leases.ts).
  CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    note TEXT
  );
  `,
  `
  -- Which version of the subscribers a hub matched events against: bumped with every change to
  -- them, and checked by the write on the seq row it locks (see events.ts WRITE).
  ALTER TABLE event_seq ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
  `,
  `
  -- Browsers signed in to the dashboard are senders of their own kind (powers never come from a
  -- name), with a credential that expires. The ones signed in before this change held a cookie that
  -- no longer works: they are marked and expired, and the next sweep removes them.
  ALTER TABLE senders ADD COLUMN kind TEXT NOT NULL DEFAULT 'token';
  ALTER TABLE senders ADD COLUMN expires_at BIGINT;
  UPDATE senders SET kind = 'browser', expires_at = 0
    WHERE name IN (SELECT answer::json->>'signedIn' FROM decisions WHERE kind = 'signin' AND answer IS NOT NULL);
  `,
  `
  -- What a chat bridge remembers between messages (see store/bridge-memory.ts): a chat's /to choice,
  -- the chat a /new session answers to, downloadable attachments, replies counted for a stranger.
  CREATE TABLE bridge_memory (
    platform TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    at BIGINT NOT NULL,
    PRIMARY KEY (platform, kind, key)
  );
  CREATE INDEX bridge_memory_age ON bridge_memory (kind, at);
  `,
  `
  -- SQLite's name for byte order, so a statement written once for both stores (store/shared/) can
  -- sort names alike whatever this database's locale: C's order is the bytes'.
  CREATE COLLATION IF NOT EXISTS "BINARY" FROM "C";
  `,
  `
  -- Claude Code sessions at terminals, as their hooks tell the hub (see store/terminal-sessions.ts).
  CREATE TABLE terminal_sessions (
    session_id TEXT PRIMARY KEY,
    folder TEXT NOT NULL,
    name TEXT NOT NULL,
    branch TEXT,
    model TEXT,
    channel BOOLEAN NOT NULL DEFAULT false,
    status TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    ended_at BIGINT,
    end_reason TEXT
  );
  CREATE INDEX terminal_sessions_seen ON terminal_sessions (last_seen_at);
  `,
  `
  -- Delivery receipts (issue 23, store/receipts.ts): how far each delivery got, once its subscriber
  -- reports. Events are found by id for them (GET /api/events/:id): an index on every event's id.
  CREATE TABLE receipts (
    event_id TEXT NOT NULL,
    subscriber TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('stored','written','queued','in_context','unconfirmed')),
    written_at BIGINT,
    in_context_at BIGINT,
    tries INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    hook_taken BOOLEAN NOT NULL DEFAULT false,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, subscriber)
  );
  CREATE INDEX receipts_unconfirmed ON receipts (subscriber, updated_at) WHERE state = 'unconfirmed';
  CREATE INDEX receipts_age ON receipts (updated_at);
  CREATE INDEX events_id ON events (id);
  `,
  `
  -- Outbound webhooks that asked to be told when an event of their topics is in a session's context
  -- (or ends unconfirmed), and those receipts queued for them until POSTed (issue 23, store/outbound.ts).
  -- next_at is when one is due; NULL once it was sent or given up. The log says which kind each attempt was.
  ALTER TABLE outbound_webhooks ADD COLUMN receipts BOOLEAN NOT NULL DEFAULT false;
  ALTER TABLE outbound_log ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
  CREATE TABLE outbound_receipts (
    id BIGSERIAL PRIMARY KEY,
    webhook TEXT NOT NULL,
    event_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    subscriber TEXT NOT NULL,
    stage TEXT NOT NULL,
    at BIGINT NOT NULL,
    tries INTEGER NOT NULL,
    reason TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT,
    created_at BIGINT NOT NULL,
    UNIQUE (webhook, event_id, subscriber, stage)
  );
  CREATE INDEX outbound_receipts_due ON outbound_receipts (webhook, next_at) WHERE next_at IS NOT NULL;
  CREATE INDEX outbound_receipts_age ON outbound_receipts (created_at) WHERE next_at IS NULL;
  `,
  `
  -- Web Push (issue 24, store/push.ts): the hub's VAPID key pair, one row every hub on the database
  -- shares, and the browsers subscribed to it. A driven session keeps its first prompt and the title
  -- a person gives it, which name it on the dashboard.
  CREATE TABLE push_keys (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    public_key TEXT NOT NULL,
    private_key TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    sender_id TEXT NOT NULL,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    display_name TEXT,
    created_at BIGINT NOT NULL
  );
  ALTER TABLE sessions ADD COLUMN first_prompt TEXT;
  ALTER TABLE sessions ADD COLUMN title TEXT;
  `,
  `
  -- Routines (issue 25, store/routines.ts, docs/routines.md): each routine as its checked JSON; its
  -- runs, at most one open per (routine, key); each run's events, taken once per (routine, event).
  CREATE TABLE routines (
    name TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    paused BOOLEAN NOT NULL DEFAULT false,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE routine_runs (
    id TEXT PRIMARY KEY,
    routine TEXT NOT NULL,
    run_key TEXT NOT NULL,
    state TEXT NOT NULL,
    cause TEXT NOT NULL,
    session_id TEXT,
    decision_id TEXT,
    due_at BIGINT NOT NULL,
    event_count INTEGER NOT NULL,
    cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    ended_at BIGINT
  );
  CREATE UNIQUE INDEX routine_runs_open ON routine_runs (routine, run_key)
    WHERE state IN ('pending', 'gated', 'starting', 'running');
  CREATE INDEX routine_runs_by_routine ON routine_runs (routine, created_at);
  CREATE TABLE routine_run_events (
    routine TEXT NOT NULL,
    event_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    event TEXT NOT NULL,
    sent BOOLEAN NOT NULL DEFAULT false,
    at BIGINT NOT NULL,
    PRIMARY KEY (routine, event_id)
  );
  CREATE INDEX routine_run_events_run ON routine_run_events (run_id, n);
  `,
  `
  -- Issue 32: a gated routine's run takes no more events once its gate has shown them, so a later
  -- event of its key waits as the next run, pending while that one is under way: one pending and
  -- one under-way run per (routine, key), where there was one open run.
  DROP INDEX routine_runs_open;
  CREATE UNIQUE INDEX routine_runs_pending ON routine_runs (routine, run_key) WHERE state = 'pending';
  CREATE UNIQUE INDEX routine_runs_under_way ON routine_runs (routine, run_key)
    WHERE state IN ('gated', 'starting', 'running');
  `,
  `
  -- A subscriber name is bound to one session at a time (hub/core/session-names.ts): found by name.
  CREATE INDEX terminal_sessions_by_name ON terminal_sessions (name);
  `,
  `
  -- Sessions get what is about their own project (issue 33, core/event.ts wants): an event says what
  -- it is about, a subscriber what its project is and what * means for it (subscribers from before
  -- keep everything), a webhook source what it is bound to.
  ALTER TABLE events ADD COLUMN about TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE subscribers ADD COLUMN scope TEXT NOT NULL DEFAULT 'everything';
  ALTER TABLE subscribers ADD COLUMN keys TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE sources ADD COLUMN about TEXT NOT NULL DEFAULT '[]';
  -- Every surface names a session by its project and a title from its first prompt.
  ALTER TABLE terminal_sessions ADD COLUMN title TEXT;
  ALTER TABLE terminal_sessions ADD COLUMN repository TEXT;
  `,
  `
  -- Issue 36: what sessions cost. A driven session keeps what its usage is counted against (its
  -- project, the routine that started it, who started it), and each turn its CLI reports is a row
  -- of usage, kept when the session's lines are pruned or the session is removed: it was spent.
  ALTER TABLE sessions ADD COLUMN project TEXT;
  ALTER TABLE sessions ADD COLUMN routine TEXT;
  ALTER TABLE sessions ADD COLUMN started_by TEXT;
  CREATE TABLE usage (
    id BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    project TEXT,
    agent TEXT NOT NULL,
    routine TEXT,
    operator TEXT,
    cost_usd DOUBLE PRECISION,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_write_tokens BIGINT NOT NULL
  );
  CREATE INDEX usage_by_time ON usage (at);
  CREATE INDEX usage_by_project ON usage (project, at);
  CREATE TABLE budgets (
    project TEXT PRIMARY KEY,
    daily_usd DOUBLE PRECISION NOT NULL,
    thresholds TEXT NOT NULL,
    set_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE budget_notices (
    project TEXT NOT NULL,
    day TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (project, day, threshold)
  );
  `,
  `
  -- Rules by pattern besides exact input (core/rule-match.ts), and rules that deny. A pattern
  -- rule's input is JSON null. Rules made before are exact rules that allow.
  ALTER TABLE rules ADD COLUMN match_kind TEXT NOT NULL DEFAULT 'exact' CHECK (match_kind IN ('exact','prefix','glob'));
  ALTER TABLE rules ADD COLUMN pattern TEXT;
  ALTER TABLE rules ADD COLUMN effect TEXT NOT NULL DEFAULT 'allow' CHECK (effect IN ('allow','deny'));
  `,
  `
  -- Rules for the sessions one operator starts (scope 'operator').
  ALTER TABLE rules DROP CONSTRAINT rules_scope_check;
  ALTER TABLE rules ADD CONSTRAINT rules_scope_check CHECK (scope IN ('session','folder','operator','everywhere'));
  `,
  `
  -- A decision found by its code (the dashboard's feed, on every change to one): the newest of a
  -- kind, code and owner, without reading every decision kept. And the answers a channel has not
  -- been handed yet (read on every answer another hub gave), without reading every answer it had.
  CREATE INDEX decisions_code ON decisions (kind, code, owner, created_at);
  CREATE INDEX decisions_unrelayed ON decisions (kind, owner) WHERE status = 'answered' AND NOT relayed;
  `,
]
