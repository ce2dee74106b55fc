// Talks to the hub's /api on the same origin. The browser is signed in by a key kept in this origin's
// storage (no other port or site can read it) and sent as `Authorization: Bearer`; every
// state-changing request also carries `X-Switchboard: 1`. A 401 anywhere means "not signed in".
import type {
  Answer,
  BrowserRow,
  ChannelRow,
  DecisionRow,
  EventRow,
  HistoryRow,
  HubHealth,
  Me,
  NewRule,
  NewSession,
  OutboundLogRow,
  OutboundRow,
  RuleRow,
  SenderRow,
  SessionRow,
  SignedIn,
  SourceRow,
} from '../../src/core/dashboard-api.ts'

const KEY = 'switchboard.key'

/** The browser's key, while it has one. */
function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

/** What every request to the API carries: the key, when the browser holds one. */
export function authHeaders(): Record<string, string> {
  const key = storedKey()
  return key ? { authorization: `Bearer ${key}` } : {}
}

/** The permission modes a session can be switched to (permissionModeSchema). */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions'
export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
]

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const signedOutListeners = new Set<() => void>()

/** Called when any request finds the browser signed out. */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

function signedOut() {
  for (const listener of signedOutListeners) listener()
}

/** Spends a sign-in link's token for a key, kept for this origin only. */
export async function signIn(token: string): Promise<SignedIn> {
  const signedIn = await request<SignedIn>('/api/signin', {
    method: 'POST',
    headers: { 'X-Switchboard': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  })
  localStorage.setItem(KEY, signedIn.key)
  return signedIn
}

/** Ends this browser's sign-in at the hub, and forgets the key whatever the hub said. */
export async function signOut(): Promise<void> {
  try {
    await post<unknown>('/api/signout')
  } finally {
    localStorage.removeItem(KEY)
    signedOut()
  }
}

function messageOf(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() || null
  if (!body || typeof body !== 'object') return null
  const b = body as Record<string, unknown>
  if (typeof b.error === 'string') return b.error
  if (b.error && typeof b.error === 'object') return messageOf(b.error)
  if (typeof b.message === 'string') return b.message
  return null
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, {
      ...init,
      credentials: 'omit',
      headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) },
    })
  } catch {
    throw new ApiError(0, 'cannot reach the hub; is it running?')
  }
  const text = await res.text()
  if (res.status === 401 && path !== '/api/signin') {
    signedOut()
    throw new ApiError(401, 'not signed in')
  }
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    // not JSON: keep the text for the error message
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(body) ?? `${res.status} ${res.statusText}`)
  return body as T
}

function post<T>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    headers: { ...headers, 'X-Switchboard': '1', 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  })
}

function del<T>(path: string): Promise<T> {
  return request<T>(path, { method: 'DELETE', headers: { 'X-Switchboard': '1' } })
}

const enc = encodeURIComponent

export const api = {
  me: () => request<Me>('/api/me'),
  browsers: () => request<{ browsers: BrowserRow[] }>('/api/browsers'),
  /** Signs another browser out: its key stops working and its streams close. */
  revokeBrowser: (name: string) => del<{ ok: true }>(`/api/browsers/${enc(name)}`),
  sessions: () => request<{ sessions: SessionRow[] }>('/api/sessions'),
  session: (id: string) => request<{ session: SessionRow }>(`/api/sessions/${enc(id)}`),
  startSession: (body: NewSession) => post<{ id: string }>('/api/sessions', body),
  sendMessage: (id: string, text: string) => post<unknown>(`/api/sessions/${enc(id)}/messages`, { text }),
  interrupt: (id: string) => post<unknown>(`/api/sessions/${enc(id)}/interrupt`),
  decisions: () => request<{ decisions: DecisionRow[] }>('/api/decisions'),
  answer: (id: string, answer: Answer) =>
    post<{ decision: DecisionRow }>(`/api/decisions/${enc(id)}`, answer),
  rules: () => request<{ rules: RuleRow[] }>('/api/rules'),
  /** Makes an "always allow" rule from an open permission decision; the hub then approves it. */
  makeRule: (body: NewRule) => post<{ rule: RuleRow }>('/api/rules', body),
  revokeRule: (id: string) => del<{ ok: true }>(`/api/rules/${enc(id)}`),
  setModel: (id: string, model: string) => post<unknown>(`/api/sessions/${enc(id)}/model`, { model }),
  setPermissionMode: (id: string, mode: PermissionMode) =>
    post<unknown>(`/api/sessions/${enc(id)}/permission-mode`, { mode }),
  history: () => request<{ sessions: HistoryRow[] }>('/api/history'),
  /** Drives a Claude Code session from the history (or a fork of it) from here on. */
  resume: (claudeSessionId: string, body: { cwd: string; prompt: string; fork: boolean }) =>
    post<{ id: string }>(`/api/history/${enc(claudeSessionId)}/resume`, body),
  channels: () => request<{ channels: ChannelRow[] }>('/api/channels'),
  access: () => request<{ senders: SenderRow[]; pairings: DecisionRow[] }>('/api/access'),
  changeSender: (name: string, change: { status?: 'allowed' | 'blocked'; operator?: boolean }) =>
    post<{ sender: SenderRow }>(`/api/access/${enc(name)}`, change),
  health: () => request<HubHealth>('/api/health'),
  /**
   * Writes to the sessions that take chat (one by name with `to`). The same key on a retry is not
   * delivered twice. `sessions`: how many took it; 0 means the hub keeps it for the next one.
   */
  chat: (body: { text: string; to?: string }, idempotencyKey: string) =>
    post<ChatSent>('/api/chat', body, { 'Idempotency-Key': idempotencyKey }),
  /** Stored events, newest first (50 a page): holding `q`, from `source`, before `before` (a seq). */
  events: (filter: EventFilter) => request<{ events: EventRow[] }>(`/api/events${eventQuery(filter)}`),
  /** The webhook sources (never their secrets). */
  sources: () => request<{ sources: SourceRow[] }>('/api/sources'),
  outbound: () => request<{ webhooks: OutboundRow[] }>('/api/outbound'),
  outboundLog: (name: string) => request<{ log: OutboundLogRow[] }>(`/api/outbound/${enc(name)}/log`),
  peers: () => request<{ peers: PeerRow[] }>('/api/peers'),
}

/** What GET /api/events narrows by; empty or absent means any. */
export interface EventFilter {
  q?: string
  source?: string
  before?: number
}

function eventQuery({ q, source, before }: EventFilter): string {
  const query = new URLSearchParams()
  if (q) query.set('q', q)
  if (source) query.set('source', source)
  if (before !== undefined) query.set('before', String(before))
  const s = query.toString()
  return s ? `?${s}` : ''
}

/** A session others can message (GET /api/peers): its aliases, whether it is connected, its rooms. */
export interface PeerRow {
  name: string
  aliases: string[]
  live: boolean
  rooms: string[]
  /** Messages waiting for it. */
  pending: number
}

/** POST /api/chat's answer (202). */
export interface ChatSent {
  id: string
  chat_id: string
  sessions: number
}

/** What to say when answering a decision failed; a 409 means another surface answered first. */
export function answerErrorText(err: unknown): string {
  return err instanceof ApiError && err.status === 409
    ? `Someone else answered first: ${err.message}`
    : errorText(err)
}

export const streamUrl = {
  session: (id: string, after: number) =>
    `/api/sessions/${enc(id)}/stream${after > 0 ? `?after=${after}` : ''}`,
  /** Decision changes and turn ends, hub-wide (feed.ts). */
  feed: () => '/api/feed',
  /** Replies from the start (or, on the browser's own reconnect, after its Last-Event-ID). */
  chat: () => '/api/chat/stream',
}

const standingListeners = new Set<(me: Me) => void>()

/** Called when the hub says who this browser is now (an operator, or demoted). */
export function onStanding(listener: (me: Me) => void): () => void {
  standingListeners.add(listener)
  return () => standingListeners.delete(listener)
}

/** A stream the hub ended or refused may mean the browser was signed out or demoted: ask once. */
export async function checkSignedIn(): Promise<void> {
  try {
    const me = await api.me()
    for (const listener of standingListeners) listener(me)
  } catch {
    // signedOut() already ran for a 401; anything else is retried by the caller
  }
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}
