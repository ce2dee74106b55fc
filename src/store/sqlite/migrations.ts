// Schema versions, applied in order inside one transaction each; PRAGMA user_version records progress.
export const migrations: string[] = [
  `
  CREATE TABLE sources (
    name TEXT PRIMARY KEY,
    topic TEXT NOT NULL,
    secret TEXT NOT NULL,
    delivery_header TEXT,
    created_at INTEGER NOT NULL
  );
  -- Every index here is written on each webhook's commit: keep them few.
  CREATE TABLE events (
    -- Not AUTOINCREMENT: events are never deleted, so rowids only grow, and the sequence table's
    -- extra page write per commit is saved.
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    topic TEXT NOT NULL,
    source TEXT NOT NULL,
    sender TEXT,
    chat_id TEXT,
    target TEXT,
    content TEXT NOT NULL,
    meta TEXT NOT NULL,
    idem_key TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX events_idempotency ON events (source, idem_key) WHERE idem_key IS NOT NULL;
  CREATE TABLE subscribers (
    name TEXT PRIMARY KEY,
    topics TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL
  );
  -- What each subscriber has still to receive: one row per (subscriber, event), deleted when
  -- acknowledged, so this stays as small as the backlog. Subscriber '' parks an event no one wanted yet.
  CREATE TABLE deliveries (
    subscriber TEXT NOT NULL,
    seq INTEGER NOT NULL REFERENCES events(seq),
    PRIMARY KEY (subscriber, seq)
  ) WITHOUT ROWID;
  CREATE TABLE senders (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('allowed','pending','blocked')),
    operator INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE chats (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    sender_id TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (source, sender_id)
  );
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sender_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    streamed INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
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
    relayed INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    answered_at INTEGER,
    expires_at INTEGER
  );
  CREATE INDEX decisions_open ON decisions (kind, code) WHERE status = 'open';
  CREATE INDEX decisions_owner ON decisions (kind, owner, status);
  `,
  `
  -- Sessions the hub drives: their record, and every line of their stream so any surface can replay it.
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    claude_session_id TEXT,
    cwd TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    cost_usd REAL NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    last_result TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE session_events (
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
  ) WITHOUT ROWID;
  `,
  `
  -- Peers: rooms they joined, and what could not be delivered (to a name nobody holds, or to an
  -- outbound webhook that kept failing).
  CREATE TABLE rooms (
    room TEXT NOT NULL,
    member TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (room, member)
  ) WITHOUT ROWID;
  CREATE TABLE dead_letters (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    payload TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  `
  -- Outbound webhooks: stateless consumers that get each event POSTed, signed, with retries.
  CREATE TABLE outbound_webhooks (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    max_attempts INTEGER NOT NULL,
    backoff_ms INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE outbound_log (
    id INTEGER PRIMARY KEY,
    webhook TEXT NOT NULL,
    event_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    at INTEGER NOT NULL
  );
  CREATE INDEX outbound_log_webhook ON outbound_log (webhook, id);
  `,
  `
  -- Other names a peer answers to.
  CREATE TABLE peer_aliases (
    alias TEXT PRIMARY KEY,
    name TEXT NOT NULL
  );
  `,
  `
  -- An event with an idempotency key has an id derived from its source, sender and key
  -- (core/ids.ts keyedEventId): the id is the key, unique among keyed events.
  DROP INDEX events_idempotency;
  CREATE UNIQUE INDEX events_keyed ON events (id) WHERE idem_key IS NOT NULL;
  `,
  `
  -- Whether other sessions may message a subscriber: channels yes; driven sessions only when created
  -- as peers; outbound webhooks never.
  ALTER TABLE subscribers ADD COLUMN peer INTEGER NOT NULL DEFAULT 1;
  UPDATE subscribers SET peer = 0 WHERE name LIKE 'session:%' OR name LIKE 'webhook:%';
  `,
  `
  -- Why a driven session is where it is: the CLI did not start, died, was stopped or went idle.
  ALTER TABLE sessions ADD COLUMN reason TEXT;
  `,
  `
  -- A parked event goes to every subscriber that registers wanting it, not to the first only.
  -- parked_seq: the highest seq written when the subscriber last registered; parked events up to it
  -- were offered to it then, so no registration is offered one twice. Subscribers from before this
  -- were offered the parked events under the old rule.
  ALTER TABLE subscribers ADD COLUMN parked_seq INTEGER NOT NULL DEFAULT 0;
  UPDATE subscribers SET parked_seq = (SELECT coalesce(max(seq), 0) FROM events);
  `,
  `
  -- How a webhook source's bodies become events (generic, github, alertmanager, grafana), and for
  -- the generic preset its field map: a JSON object of name → JSON path, or NULL.
  ALTER TABLE sources ADD COLUMN preset TEXT NOT NULL DEFAULT 'generic';
  ALTER TABLE sources ADD COLUMN field_map TEXT;
  `,
  `
  -- Chat bridges: how a platform shows a sender, and what a bridge noted about an item it showed
  -- (the platform's message ids, to edit a prompt once it is answered).
  ALTER TABLE senders ADD COLUMN display_name TEXT;
  ALTER TABLE outbox ADD COLUMN receipt TEXT;
  `,
  `
  -- "Always allow" rules: a tool and its exact input, in a session, a folder or everywhere.
  CREATE TABLE rules (
    id TEXT PRIMARY KEY,
    tool_name TEXT NOT NULL,
    input TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('session','folder','everywhere')),
    scope_value TEXT,
    expires_at INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    uses INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX rules_tool ON rules (tool_name);
  `,
  `
  -- Work one hub at a time may do, held for a while and renewed (see store/leases.ts).
  CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    note TEXT
  );
  `,
  `
  -- Browsers signed in to the dashboard are senders of their own kind (powers never come from a
  -- name), with a credential that expires. The ones signed in before this change held a cookie that
  -- no longer works: they are marked and expired, and the next sweep removes them.
  ALTER TABLE senders ADD COLUMN kind TEXT NOT NULL DEFAULT 'token';
  ALTER TABLE senders ADD COLUMN expires_at INTEGER;
  UPDATE senders SET kind = 'browser', expires_at = 0
    WHERE name IN (SELECT json_extract(answer, '$.signedIn') FROM decisions WHERE kind = 'signin' AND answer IS NOT NULL);
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
    at INTEGER NOT NULL,
    PRIMARY KEY (platform, kind, key)
  );
  CREATE INDEX bridge_memory_age ON bridge_memory (kind, at);
  `,
  `
  -- Claude Code sessions at terminals, as their hooks tell the hub (see store/terminal-sessions.ts).
  CREATE TABLE terminal_sessions (
    session_id TEXT PRIMARY KEY,
    folder TEXT NOT NULL,
    name TEXT NOT NULL,
    branch TEXT,
    model TEXT,
    channel INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    ended_at INTEGER,
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
    written_at INTEGER,
    in_context_at INTEGER,
    tries INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    hook_taken INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
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
  ALTER TABLE outbound_webhooks ADD COLUMN receipts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE outbound_log ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
  CREATE TABLE outbound_receipts (
    id INTEGER PRIMARY KEY,
    webhook TEXT NOT NULL,
    event_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    subscriber TEXT NOT NULL,
    stage TEXT NOT NULL,
    at INTEGER NOT NULL,
    tries INTEGER NOT NULL,
    reason TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER,
    created_at INTEGER NOT NULL,
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
    created_at INTEGER NOT NULL
  );
  CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    sender_id TEXT NOT NULL,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    display_name TEXT,
    created_at INTEGER NOT NULL
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
    paused INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE routine_runs (
    id TEXT PRIMARY KEY,
    routine TEXT NOT NULL,
    run_key TEXT NOT NULL,
    state TEXT NOT NULL,
    cause TEXT NOT NULL,
    session_id TEXT,
    decision_id TEXT,
    due_at INTEGER NOT NULL,
    event_count INTEGER NOT NULL,
    cost_usd REAL NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    ended_at INTEGER
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
    sent INTEGER NOT NULL DEFAULT 0,
    at INTEGER NOT NULL,
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
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    project TEXT,
    agent TEXT NOT NULL,
    routine TEXT,
    operator TEXT,
    cost_usd REAL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL
  );
  CREATE INDEX usage_by_time ON usage (at);
  CREATE INDEX usage_by_project ON usage (project, at);
  CREATE TABLE budgets (
    project TEXT PRIMARY KEY,
    daily_usd REAL NOT NULL,
    thresholds TEXT NOT NULL,
    set_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE budget_notices (
    project TEXT NOT NULL,
    day TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    at INTEGER NOT NULL,
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
  -- Rules for the sessions one operator starts (scope 'operator'). SQLite cannot change a CHECK in
  -- place: the table is made again with it, every rule copied as it was.
  CREATE TABLE rules_next (
    id TEXT PRIMARY KEY,
    tool_name TEXT NOT NULL,
    input TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('session','folder','operator','everywhere')),
    scope_value TEXT,
    expires_at INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    uses INTEGER NOT NULL DEFAULT 0,
    match_kind TEXT NOT NULL DEFAULT 'exact' CHECK (match_kind IN ('exact','prefix','glob')),
    pattern TEXT,
    effect TEXT NOT NULL DEFAULT 'allow' CHECK (effect IN ('allow','deny'))
  );
  INSERT INTO rules_next (id, tool_name, input, scope, scope_value, expires_at, created_by, created_at, uses, match_kind, pattern, effect)
    SELECT id, tool_name, input, scope, scope_value, expires_at, created_by, created_at, uses, match_kind, pattern, effect FROM rules;
  DROP TABLE rules;
  ALTER TABLE rules_next RENAME TO rules;
  CREATE INDEX rules_tool ON rules (tool_name);
  `,
  `
  -- A decision found by its code (the dashboard's feed, on every change to one): the newest of a
  -- kind, code and owner, without reading every decision kept. And the answers a channel has not
  -- been handed yet (read on every answer another hub gave), without reading every answer it had.
  CREATE INDEX decisions_code ON decisions (kind, code, owner, created_at);
  CREATE INDEX decisions_unrelayed ON decisions (kind, owner) WHERE status = 'answered' AND NOT relayed;
  `,
]
