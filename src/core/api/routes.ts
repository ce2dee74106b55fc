// Every route of the hub's HTTP surface, once: its method, its path and who may call it. The hub
// registers a handler for each (hub/http/), the OpenAPI document is generated from them, and the CLI's
// and the page's clients call them by name (./client.ts): no path is written anywhere else. No zod
// here, so the page can import it.

/**
 * Who may call a route, from the credential the request carries (hub/http/principal.ts):
 * - `none`: anyone (what the route checks itself, if anything, is its own business);
 * - `source`: a webhook source's secret or signature, checked by the route;
 * - `sender`: a sender's token (a person or program chatting with sessions);
 * - `browser`: a signed-in browser, operator or not (to see who it is, and to sign out);
 * - `operator`: the admin token, or a browser whose sender is an operator;
 * - `admin`: the admin token only (local processes: the CLI, channels, `switchboard mcp`, hooks);
 * - `hook`: the admin token, or nothing down the home's socket, which only the home's owner can
 *   reach: how Claude Code's hooks call (settings.json holds no secret, and a hook can do only what hooks do).
 */
export type Auth = 'none' | 'source' | 'sender' | 'browser' | 'operator' | 'admin' | 'hook'

export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  auth: Auth
  summary: string
  /** Answered as a server-sent event stream, or as a WebSocket upgrade, not as JSON. */
  stream?: 'sse' | 'upgrade'
  /** The status a success answers with, when it is not 200. */
  status?: 201 | 202
  /**
   * The most bytes its request body may have (more is a 413: at once when the request says its
   * length, else as soon as the count passes it while reading); `maxBodyBytes`, the hub's setting of
   * that name (what other programs post: webhooks, senders' messages). Absent: SMALL_BODY, room for
   * `{}` and a few fields, which a route that takes no body never reads anyway.
   */
  maxBody?: number | 'maxBodyBytes' | 'chatFileLimitMb'
  /**
   * Its body is a file's bytes as they are, its type in Content-Type (not JSON); the name and any
   * words to go with it in the query.
   */
  file?: true
}

const KiB = 1024
const MiB = 1024 * KiB
/** The body limit of a route that names none. */
export const SMALL_BODY = KiB
/** A person's or a program's text (a prompt, a message, a routine): the API's limit before issue 21 too. */
const TEXT = MiB
/** What carries a tool's input (a file's whole content, for a Write), or a person's edit of it. */
const TOOL_INPUT = 4 * MiB
/** An event a person gives a routine: its content alone may be 1,000,000 characters. */
const GIVEN_EVENT = 4 * MiB

/** A route's body limit: its own, or SMALL_BODY. */
export function bodyLimitOf(route: RouteDef): number | 'maxBodyBytes' | 'chatFileLimitMb' {
  return route.maxBody ?? SMALL_BODY
}

export const ROUTES = {
  // --- the hub itself -------------------------------------------------------------------------
  health: {
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'the hub answers; with ?challenge=, its proof that it holds the admin token',
  },
  openapi: { method: 'GET', path: '/openapi.json', auth: 'none', summary: 'this document' },
  hubSocket: {
    method: 'GET',
    path: '/hub',
    auth: 'admin',
    stream: 'upgrade',
    summary: 'the hub socket of channels (WebSocket; the hub protocol)',
  },
  sdkSocket: {
    method: 'GET',
    path: '/sdk/:id',
    auth: 'none',
    stream: 'upgrade',
    summary: 'a driven CLI on the --sdk-url transport, with the token of its one session',
  },

  // --- webhooks and senders ---------------------------------------------------------------------
  webhook: {
    method: 'POST',
    path: '/hooks/:source',
    maxBody: 'maxBodyBytes',
    auth: 'source',
    status: 202,
    summary: 'an event from a webhook source (202 stored, 200 a duplicate)',
  },
  message: {
    method: 'POST',
    path: '/messages',
    maxBody: 'maxBodyBytes',
    auth: 'sender',
    status: 202,
    summary: "a sender's chat message, or a verdict (yes <id>)",
  },
  senderEvents: {
    method: 'GET',
    path: '/events',
    auth: 'sender',
    stream: 'sse',
    summary: "the sender's replies and prompts",
  },
  pair: {
    method: 'POST',
    path: '/pair',
    auth: 'none',
    status: 201,
    summary: 'a pairing code and a token that waits for an operator',
  },

  // --- who is asking ----------------------------------------------------------------------------
  signin: {
    method: 'POST',
    path: '/api/signin',
    maxBody: 512,
    auth: 'none',
    status: 201,
    summary: "spends a sign-in link's token for a browser key",
  },
  signout: {
    method: 'POST',
    path: '/api/signout',
    auth: 'browser',
    summary: "this browser's key stops working",
  },
  me: { method: 'GET', path: '/api/me', auth: 'browser', summary: 'who is signed in' },
  browsers: { method: 'GET', path: '/api/browsers', auth: 'operator', summary: 'the browsers signed in' },
  revokeBrowser: {
    method: 'DELETE',
    path: '/api/browsers/:name',
    auth: 'operator',
    summary: 'signs a browser out',
  },
  signinLink: {
    method: 'POST',
    path: '/api/web-links',
    auth: 'admin',
    status: 201,
    summary: 'a one-time sign-in link for the dashboard',
  },

  // --- the hub's state --------------------------------------------------------------------------
  status: {
    method: 'GET',
    path: '/api/status',
    auth: 'operator',
    summary: 'the hub: version, connections, hubs',
  },
  channels: {
    method: 'GET',
    path: '/api/channels',
    auth: 'operator',
    summary: 'channel sessions (subscribers) and their backlog',
  },
  access: { method: 'GET', path: '/api/access', auth: 'operator', summary: 'senders and pairing requests' },
  changeSender: {
    method: 'POST',
    path: '/api/access/:name',
    auth: 'operator',
    summary: 'allows or blocks a sender, makes it an operator or not',
  },
  notices: {
    method: 'GET',
    path: '/api/access/:name/notices',
    auth: 'operator',
    summary: 'which notices of sessions at terminals a sender gets (waiting, finished)',
  },
  chooseNotices: {
    method: 'POST',
    path: '/api/access/:name/notices',
    auth: 'operator',
    summary: 'chooses which notices of sessions at terminals a sender gets; [] for none',
  },
  // Senders and sources as the admin manages them (`switchboard sender`, `pair`, `access`, `source`):
  // whatever makes or changes one, or hands out a token or a secret, is the admin token's only. The
  // hub is the one process that writes its store (docs/design-notes.md, "One writer").
  senders: {
    method: 'GET',
    path: '/api/senders',
    auth: 'operator',
    summary: 'every sender: people, chat accounts, browsers, and those waiting to pair',
  },
  addSender: {
    method: 'POST',
    path: '/api/senders',
    auth: 'admin',
    status: 201,
    summary: 'an allowed sender (its token is in this answer only)',
  },
  setSenderAccess: {
    method: 'POST',
    path: '/api/senders/:name/access',
    auth: 'admin',
    summary: 'allows or blocks a sender, an operator or not; allowing <platform>:<user id> makes it',
  },
  removeSender: {
    method: 'DELETE',
    path: '/api/senders/:name',
    auth: 'admin',
    summary: 'deletes a sender and its token',
  },
  pairings: {
    method: 'GET',
    path: '/api/pairings',
    auth: 'operator',
    summary: 'the pairing requests waiting, with who asked',
  },
  approvePairing: {
    method: 'POST',
    path: '/api/pairings/:code',
    auth: 'admin',
    summary: 'approves a pairing request by its code: the device becomes an allowed sender',
  },
  events: {
    method: 'GET',
    path: '/api/events',
    auth: 'operator',
    summary:
      'stored events, newest first (50 a page unless limit says), with their deliveries; by text, source, topic, subscriber and state',
  },
  event: {
    method: 'GET',
    path: '/api/events/:id',
    auth: 'operator',
    summary:
      "an event and, per subscriber, its delivery's state, receipts (stored, written, in_context) and tries",
  },
  webhookEvent: {
    method: 'GET',
    path: '/hooks/:source/events/:id',
    auth: 'source',
    summary: "a webhook sender's own event and its receipts, with the source's secret",
  },
  sources: { method: 'GET', path: '/api/sources', auth: 'operator', summary: 'webhook sources (no secrets)' },
  addSource: {
    method: 'POST',
    path: '/api/sources',
    auth: 'admin',
    status: 201,
    summary: 'a webhook source (the secret the hub made is in this answer only)',
  },
  rotateSource: {
    method: 'POST',
    path: '/api/sources/:name/secret',
    auth: 'admin',
    summary:
      'a new secret for a source (the one made here is in this answer only); the old one stops working',
  },
  bindSource: {
    method: 'POST',
    path: '/api/sources/:name/about',
    auth: 'admin',
    summary: "the projects a source's events are about ([]: none)",
  },
  removeSource: {
    method: 'DELETE',
    path: '/api/sources/:name',
    auth: 'admin',
    summary: 'deletes a webhook source; its URL answers 404 from then on',
  },
  peers: { method: 'GET', path: '/api/peers', auth: 'operator', summary: 'sessions others can message' },
  sendToPeer: {
    method: 'POST',
    path: '/api/peers/messages',
    maxBody: TEXT,
    auth: 'operator',
    status: 202,
    summary: 'a message to a peer',
  },
  deadLetters: {
    method: 'GET',
    path: '/api/dead-letters',
    auth: 'operator',
    summary: 'what could not be delivered, and why',
  },
  subscriptions: {
    method: 'GET',
    path: '/api/subscriptions',
    auth: 'operator',
    summary: 'outbound webhooks',
  },
  subscribe: {
    method: 'POST',
    path: '/api/subscriptions',
    maxBody: 64 * KiB,
    auth: 'admin',
    status: 201,
    summary: 'an outbound webhook (its secret is in this answer only)',
  },
  unsubscribe: {
    method: 'DELETE',
    path: '/api/subscriptions/:name',
    auth: 'admin',
    summary: 'removes an outbound webhook',
  },
  subscriptionLog: {
    method: 'GET',
    path: '/api/subscriptions/:name/log',
    auth: 'operator',
    summary: "an outbound webhook's delivery attempts",
  },
  hookTake: {
    method: 'POST',
    path: '/api/hook/take',
    auth: 'admin',
    summary: "a session's pending events, for the hook to hand over",
  },
  claudeHook: {
    method: 'POST',
    path: '/api/claude-hooks/:event',
    maxBody: TOOL_INPUT,
    auth: 'hook',
    summary:
      "a Claude Code hook's input as Claude Code sends it; answers the hook's output ({} leaves the dialog to the terminal)",
  },
  terminalSessions: {
    method: 'GET',
    path: '/api/terminal-sessions',
    auth: 'operator',
    summary: 'Claude Code sessions at terminals, as their hooks told the hub (newest first)',
  },

  // --- decisions and rules ----------------------------------------------------------------------
  decisions: {
    method: 'GET',
    path: '/api/decisions',
    auth: 'operator',
    summary: 'open decisions, oldest first',
  },
  answer: {
    method: 'POST',
    path: '/api/decisions/:ref/answer',
    maxBody: TOOL_INPUT,
    auth: 'operator',
    summary: 'answers a decision by its id or its five-letter code; 409 when it was answered already',
  },
  feed: {
    method: 'GET',
    path: '/api/feed',
    auth: 'operator',
    stream: 'sse',
    summary: "decisions opened, answered or cancelled; driven sessions' turn ends",
  },
  rules: { method: 'GET', path: '/api/rules', auth: 'operator', summary: 'the allow and deny rules' },
  previewRule: {
    method: 'POST',
    path: '/api/rules/preview',
    auth: 'operator',
    summary: 'which of the latest answered prompts a pattern rule would have matched, before it is saved',
  },
  makePatternRule: {
    method: 'POST',
    path: '/api/rules/patterns',
    auth: 'operator',
    status: 201,
    summary: 'a rule that allows or denies a tool’s calls by a prefix or glob of their command or path',
  },
  makeRule: {
    method: 'POST',
    path: '/api/rules',
    auth: 'operator',
    status: 201,
    summary: 'an always-allow rule from an open prompt, which it then answers',
  },
  revokeRule: { method: 'DELETE', path: '/api/rules/:id', auth: 'operator', summary: 'revokes a rule' },

  // --- driven sessions --------------------------------------------------------------------------
  sessions: { method: 'GET', path: '/api/sessions', auth: 'operator', summary: "the hub's driven sessions" },
  agents: {
    method: 'GET',
    path: '/api/agents',
    auth: 'operator',
    summary: 'the coding agents a session may be started with (its `agent`)',
  },
  history: {
    method: 'GET',
    path: '/api/history',
    auth: 'operator',
    summary: "every session found: the hub's and Claude Code's own on this machine, newest first",
  },
  createSession: {
    method: 'POST',
    path: '/api/sessions',
    maxBody: TEXT,
    auth: 'operator',
    status: 201,
    summary: 'starts a driven session (options.resume: from a Claude session found in the history)',
  },
  pruneSessions: {
    method: 'DELETE',
    path: '/api/sessions',
    auth: 'operator',
    summary: 'forgets every session whose CLI is not running',
  },
  session: {
    method: 'GET',
    path: '/api/sessions/:id',
    auth: 'operator',
    summary: 'one session (?wait=<s>: until it needs someone, or the wait ends)',
  },
  removeSession: {
    method: 'DELETE',
    path: '/api/sessions/:id',
    auth: 'operator',
    summary: 'forgets a session whose CLI is not running',
  },
  sendMessage: {
    method: 'POST',
    path: '/api/sessions/:id/messages',
    maxBody: TEXT,
    auth: 'operator',
    status: 202,
    summary: 'a message to a session (a stopped one is resumed)',
  },
  uploadFile: {
    method: 'POST',
    path: '/api/sessions/:id/files',
    maxBody: 'chatFileLimitMb',
    file: true,
    auth: 'operator',
    status: 202,
    summary:
      "a file into the session's folder of the inbox (chatFileLimitMb, chatFileTypes), and a message naming it (?name=, ?text=)",
  },
  transcribe: {
    method: 'POST',
    path: '/api/transcriptions',
    maxBody: 'chatFileLimitMb',
    file: true,
    auth: 'operator',
    summary:
      "a recording's words, from the configured speech-to-text service (transcriptionUrl), for a person to read before they send them; nothing is kept (?name=)",
  },
  respond: {
    method: 'POST',
    path: '/api/sessions/:id/respond',
    maxBody: TOOL_INPUT,
    auth: 'operator',
    summary: "answers one of the session's pending inputs",
  },
  interrupt: {
    method: 'POST',
    path: '/api/sessions/:id/interrupt',
    auth: 'operator',
    summary: 'ends the turn',
  },
  stopSession: { method: 'POST', path: '/api/sessions/:id/stop', auth: 'operator', summary: 'ends its CLI' },
  resumeSession: {
    method: 'POST',
    path: '/api/sessions/:id/resume',
    auth: 'operator',
    summary: 'starts its CLI again, to wait for a message',
  },
  setModel: {
    method: 'POST',
    path: '/api/sessions/:id/model',
    auth: 'operator',
    summary: 'switches the model',
  },
  setPermissionMode: {
    method: 'POST',
    path: '/api/sessions/:id/permission-mode',
    auth: 'operator',
    summary: 'switches the permission mode',
  },
  bindIde: {
    method: 'POST',
    path: '/api/sessions/:id/ide',
    auth: 'operator',
    summary: 'binds the CLI to an IDE',
  },
  unbindIde: { method: 'DELETE', path: '/api/sessions/:id/ide', auth: 'operator', summary: 'unbinds it' },
  sessionLines: {
    method: 'GET',
    path: '/api/sessions/:id/lines',
    auth: 'operator',
    summary: 'a page of its lines after ?after=<seq>',
  },
  sessionStream: {
    method: 'GET',
    path: '/api/sessions/:id/stream',
    auth: 'operator',
    stream: 'sse',
    summary: 'its lines from Last-Event-ID (or ?after=), then live; the text being written as `partial`',
  },

  // --- the web chat -----------------------------------------------------------------------------
  chat: {
    method: 'POST',
    path: '/api/chat',
    maxBody: TEXT,
    auth: 'operator',
    status: 202,
    summary: 'writes to the sessions that take chat',
  },
  chatStream: {
    method: 'GET',
    path: '/api/chat/stream',
    auth: 'operator',
    stream: 'sse',
    summary: 'replies',
  },

  // --- the phone: a session's title, Web Push ---------------------------------------------------
  nameSession: {
    method: 'POST',
    path: '/api/sessions/:id/title',
    auth: 'operator',
    summary: 'names a session (null: by its folder and first prompt again)',
  },
  pushKey: {
    method: 'GET',
    path: '/api/push/key',
    auth: 'operator',
    summary: "the hub's VAPID public key, a browser's applicationServerKey",
  },
  pushSubscriptions: {
    method: 'GET',
    path: '/api/push/subscriptions',
    auth: 'operator',
    summary: 'the browsers that get Web Push',
  },
  pushSubscribe: {
    method: 'POST',
    path: '/api/push/subscriptions',
    maxBody: 4 * KiB,
    auth: 'operator',
    status: 201,
    summary: "this browser's PushSubscription: it gets decisions and finished turns with the page closed",
  },
  revokePush: {
    method: 'DELETE',
    path: '/api/push/subscriptions/:id',
    auth: 'operator',
    summary: 'stops pushing to a browser',
  },
  pushTest: {
    method: 'POST',
    path: '/api/push/test',
    auth: 'operator',
    summary: "a test notification to the asking browser's subscriptions",
  },

  // --- what it costs (issue 36): usage totals and projects' daily budgets -------------------------
  // Setting a budget is the admin's: at its limit sessions are stopped and routines start nothing.
  usage: {
    method: 'GET',
    path: '/api/usage',
    auth: 'operator',
    summary:
      'cost and tokens of driven sessions, grouped by project, session, agent, routine, operator or day',
  },
  budgets: {
    method: 'GET',
    path: '/api/budgets',
    auth: 'operator',
    summary: "projects' daily budgets, each with what its project spent today (UTC)",
  },
  setBudget: {
    method: 'POST',
    path: '/api/budgets/:project',
    auth: 'admin',
    summary: "sets a project's daily budget (USD) and the thresholds operators are told of",
  },
  removeBudget: {
    method: 'DELETE',
    path: '/api/budgets/:project',
    auth: 'admin',
    summary: "removes a project's daily budget",
  },

  // --- routines (issue 25, docs/routines.md) ------------------------------------------------------
  // Adding or removing one is the admin's (a routine says what starts, where, with which tools);
  // pausing, resuming, firing and replaying what the admin wrote are an operator's, from the page too:
  // an operator can already start a session with a prompt of their own, and a run goes through the
  // routine's gate and caps, with a fired event's fields as untrusted data.
  routines: { method: 'GET', path: '/api/routines', auth: 'operator', summary: 'routines' },
  addRoutine: {
    method: 'POST',
    path: '/api/routines',
    maxBody: TEXT,
    auth: 'admin',
    status: 201,
    summary: 'a routine: a trigger, a filter and an action (it starts sessions: the admin token only)',
  },
  routine: { method: 'GET', path: '/api/routines/:name', auth: 'operator', summary: 'one routine' },
  removeRoutine: {
    method: 'DELETE',
    path: '/api/routines/:name',
    auth: 'admin',
    summary: 'removes a routine, its runs and what waits for it',
  },
  pauseRoutine: {
    method: 'POST',
    path: '/api/routines/:name/pause',
    auth: 'operator',
    summary: 'a routine takes no events and starts no runs until resumed (its events wait)',
  },
  resumeRoutine: {
    method: 'POST',
    path: '/api/routines/:name/resume',
    auth: 'operator',
    summary: 'a paused routine goes on, with the events that waited',
  },
  routineRuns: {
    method: 'GET',
    path: '/api/routines/:name/runs',
    auth: 'operator',
    summary: "a routine's runs, newest first: trigger, key, session, state, cost, outcome",
  },
  fireRoutine: {
    method: 'POST',
    path: '/api/routines/:name/fire',
    maxBody: GIVEN_EVENT,
    auth: 'operator',
    status: 201,
    summary: 'fires a routine by hand, with an event of its own or an empty one',
  },
  replayRun: {
    method: 'POST',
    path: '/api/routines/:name/runs/:run/replay',
    auth: 'operator',
    status: 201,
    summary: 'an ended run again: a new run with its events',
  },
  testRoutine: {
    method: 'POST',
    path: '/api/routines/:name/test',
    maxBody: GIVEN_EVENT,
    auth: 'operator',
    summary: 'a dry run: whether an event matches, its key, the run it joins, the prompt',
  },
} as const satisfies Record<string, RouteDef>

export type RouteName = keyof typeof ROUTES

/** Every state-changing request from a browser carries this header (a cross-site form cannot). */
export const API_HEADER = 'x-switchboard'
/** What a local process with the admin token calls itself (`cli`, `mcp`, `hook`): its answers' name. */
export const CLIENT_HEADER = 'x-switchboard-client'

/** The path of a route with its parameters filled in (each one encoded). */
export function pathOf(name: RouteName, params: Record<string, string> = {}): string {
  return ROUTES[name].path.replace(/:([a-zA-Z]+)/g, (_, key: string) => {
    const value = params[key]
    if (value === undefined) throw new Error(`${name}: the path needs ${key}`)
    return encodeURIComponent(value)
  })
}
