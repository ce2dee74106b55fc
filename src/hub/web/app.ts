// The dashboard: the built page (dist/web) and its API under /api, on Hono, signed in with a key that
// `switchboard open`'s link gives the page (hub/core/web-signin.ts). The webhook and channel paths
// stay on the hub's own table (bench/delivery measures them); everything a person clicks comes
// through here.
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type SSEStreamingApi, streamSSE } from 'hono/streaming'
import type { z } from 'zod'
import {
  API_HEADER,
  answerSchema,
  type BrowserRow,
  type ChannelRow,
  chatMessageSchema,
  type EventRow,
  type HistoryRow,
  type HubHealth,
  type Me,
  messageSchema,
  modelSchema,
  newRuleSchema,
  newSessionSchema,
  type OutboundLogRow,
  type OutboundRow,
  type PartialPiece,
  permissionModeSchema,
  resumeSchema,
  type SenderRow,
  type SignedIn,
  type SourceRow,
  senderChangeSchema,
  signinSchema,
} from '../../core/dashboard-api.js'
import { describeZod } from '../../core/errors.js'
import { topicMatches } from '../../core/event.js'
import type { HubStatus } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import { linesQuerySchema } from '../../core/session-api.js'
import type { Sender } from '../../store/store.js'
import type { Hub } from '../core/hub.js'
import { standing, WebSignin } from '../core/web-signin.js'
import { replayThenLive } from '../sessions/replay.js'
import type { SessionManager } from '../sessions/session-manager.js'
import { ChatReplies } from './chat.js'
import { openApiDocument } from './openapi.js'
import { DecisionFeed, decisionRow, sessionRow, turnRow } from './rows.js'

const KEEPALIVE_MS = 15_000
/** How often an open stream asks whether its browser may still see it. */
const RECHECK_MS = 1_000

/**
 * Holds an SSE stream open until the browser leaves or may no longer see it (blocked, demoted, signed
 * out or expired, from any surface: checked every second), with a comment now and then so no proxy
 * closes it.
 */
async function holdOpen(stream: SSEStreamingApi, mayStillSee: () => Promise<boolean>): Promise<void> {
  let quiet = 0
  while (!stream.aborted && !stream.closed) {
    await stream.sleep(RECHECK_MS)
    if (stream.aborted || stream.closed) return
    if (!(await mayStillSee())) return void (await stream.close())
    quiet += RECHECK_MS
    if (quiet >= KEEPALIVE_MS) {
      quiet = 0
      await stream.write(': keepalive\n\n')
    }
  }
}

/**
 * On every response of the dashboard: no other page may frame it, sniff it, learn where it was, or
 * keep a handle on its window; scripts, styles and connections only from the hub itself.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** What the browser says about who asked for a page: framed, or opened by another site (another port of this host counts). */
function openedByAnotherPage(c: Context): 'framed' | 'another-site' | null {
  const dest = c.req.header('sec-fetch-dest')
  if (dest && ['iframe', 'frame', 'embed', 'object', 'fencedframe'].includes(dest)) return 'framed'
  const site = c.req.header('sec-fetch-site')
  return site === 'cross-site' || site === 'same-site' ? 'another-site' : null
}

/**
 * What a page another site sent the browser to gets instead of the dashboard: nothing that answers,
 * and a link that opens the dashboard as the person's own navigation. So no keystroke or click meant
 * for the other page lands on a prompt.
 */
function interstitial(target: string): string {
  const href = target.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Switchboard</title></head><body><main><h1>Switchboard</h1><p>Another page sent you here. Nothing was done.</p><p><a href="${href}">Open the dashboard</a></p></main></body></html>`
}

const bearer = (header: string | undefined): string | null =>
  /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? null
/** What a browser no longer an operator may still do. */
const VIEWER_PATHS = new Set(['/api/me', '/api/signout'])
const EVENTS_PAGE = 50
/** dist/hub/web/app.js → dist/web, where `vite build` writes the page. */
const STATIC_ROOT = fileURLToPath(new URL('../../web/', import.meta.url))
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
}

type Env = { Variables: { browser: Sender } }

/** A file of the built page, or 404. */
async function serveStatic(c: Context, path: string): Promise<Response> {
  const file = normalize(join(STATIC_ROOT, path))
  if (!file.startsWith(STATIC_ROOT) || file.endsWith(sep)) return c.notFound()
  try {
    const bytes = await readFile(file)
    return c.body(bytes, 200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
  } catch {
    return c.notFound()
  }
}

async function body<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const raw = await c.req.json().catch(() => {
    throw new HTTPException(400, { message: 'the body is not JSON' })
  })
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new HTTPException(400, { message: `${issue?.path.join('.') || 'body'}: ${issue?.message}` })
  }
  return parsed.data
}

function senderRow(s: Sender): SenderRow {
  return {
    name: s.name,
    displayName: s.displayName,
    status: s.status,
    operator: s.operator,
    kind: s.kind,
    createdAt: s.createdAt,
  }
}

export function createDashboard(
  hub: Hub,
  sessions: SessionManager,
  log: Logger,
  status: () => Promise<HubStatus>,
) {
  const signin = new WebSignin(hub.store)
  const feed = new DecisionFeed(hub)
  const replies = new ChatReplies(hub)
  const app = new Hono<Env>()

  app.use('*', async (c, next) => {
    await next()
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value)
  })

  app.onError((err, c) => {
    if (err instanceof HTTPException) return c.json({ error: err.message }, err.status)
    const message = (err as Error).message
    if (/^no (session|pending input)/.test(message)) return c.json({ error: message }, 404)
    log.error({ err, path: c.req.path }, 'dashboard request failed')
    return c.json({ error: 'internal error' }, 500)
  })

  /** The page itself: at `/`, and at `/signin` (whose script spends the link's token). */
  const page = async (c: Context) => {
    const opened = openedByAnotherPage(c)
    if (opened === 'framed') return c.text('the dashboard is not shown inside another page', 403)
    if (opened) {
      const url = new URL(c.req.url)
      return c.html(interstitial(url.pathname === '/signin' ? `/signin${url.search}` : '/'))
    }
    return serveStatic(c, '/index.html')
  }
  app.get('/', page)
  app.get('/index.html', page)
  app.get('/signin', page)

  app.post('/api/signin', async (c) => {
    if (c.req.header(API_HEADER) !== '1')
      throw new HTTPException(403, { message: `signing in needs the ${API_HEADER} header` })
    const { token } = await body(c, signinSchema)
    const signedIn = await signin.redeem(token, { userAgent: c.req.header('user-agent') ?? null })
    if (!signedIn)
      throw new HTTPException(401, {
        message: 'this sign-in link was used already or has expired; run `switchboard open` again',
      })
    log.info({ browser: signedIn.sender.name }, 'dashboard signed in')
    const answer: SignedIn = {
      key: signedIn.key,
      name: signedIn.sender.name,
      expiresAt: signedIn.sender.expiresAt ?? 0,
    }
    return c.json(answer, 201)
  })

  // --- the API: a signed-in browser's key, and no state change without the page's header ----------
  app.use('/api/*', async (c, next) => {
    const browser = await signin.browser(bearer(c.req.header('authorization')))
    const now = standing(browser)
    if (!browser || now === 'out')
      throw new HTTPException(401, { message: 'not signed in: run `switchboard open` in a terminal' })
    if (c.req.method !== 'GET' && c.req.header(API_HEADER) !== '1')
      throw new HTTPException(403, { message: `state-changing requests need the ${API_HEADER} header` })
    if (now === 'viewer' && !VIEWER_PATHS.has(c.req.path))
      throw new HTTPException(403, {
        message: `this browser is no longer an operator (switchboard access allow ${browser.name} --operator)`,
      })
    c.set('browser', browser)
    await next()
  })

  /** Whether the browser behind a stream may still see what it shows (checked as it runs). */
  const stillOperator = (browser: Sender) => async () =>
    standing(await hub.store.senderById(browser.id)) === 'operator'

  app.get('/api/me', (c) => {
    const browser = c.get('browser')
    const me: Me = { name: browser.name, operator: browser.operator, expiresAt: browser.expiresAt }
    return c.json(me)
  })

  app.post('/api/signout', async (c) => {
    const browser = c.get('browser')
    await hub.store.removeSender(browser.id)
    log.info({ browser: browser.name }, 'dashboard signed out')
    return c.json({ ok: true })
  })

  app.get('/api/browsers', async (c) => {
    const me = c.get('browser')
    const browsers: BrowserRow[] = (await signin.list()).map((b) => ({
      name: b.name,
      displayName: b.displayName,
      status: b.status,
      operator: b.operator,
      createdAt: b.createdAt,
      expiresAt: b.expiresAt,
      current: b.id === me.id,
    }))
    return c.json({ browsers })
  })

  /** Signs a browser out from another: its key stops working and its streams close. */
  app.delete('/api/browsers/:name', async (c) => {
    const target = await hub.store.senderByName(c.req.param('name'))
    if (target?.kind !== 'browser')
      throw new HTTPException(404, { message: `no browser named "${c.req.param('name')}"` })
    await hub.store.removeSender(target.id)
    log.info({ browser: target.name, by: c.get('browser').name }, 'browser signed out from the dashboard')
    return c.json({ ok: true })
  })

  app.get('/api/sessions', async (c) => c.json({ sessions: (await sessions.list()).map(sessionRow) }))

  app.post('/api/sessions', async (c) => {
    const input = await body(c, newSessionSchema)
    const { prompt, ...options } = input
    const view = await sessions.create(prompt, options)
    return c.json({ id: view.id }, 201)
  })

  app.get('/api/sessions/:id', async (c) =>
    c.json({ session: sessionRow(await sessions.view(c.req.param('id'))) }),
  )

  /** A page of the transcript: `next` is the `after` of the page that follows (null: none yet). */
  app.get('/api/sessions/:id/lines', async (c) => {
    const view = await sessions.view(c.req.param('id'))
    const query = linesQuerySchema.safeParse({ after: c.req.query('after'), limit: c.req.query('limit') })
    if (!query.success) throw new HTTPException(400, { message: describeZod(query.error) })
    return c.json(await sessions.lines(view.id, query.data.after, query.data.limit))
  })

  app.post('/api/sessions/:id/messages', async (c) => {
    const { text } = await body(c, messageSchema)
    await sessions.send(c.req.param('id'), text)
    return c.json({ ok: true }, 202)
  })

  app.post('/api/sessions/:id/interrupt', async (c) => {
    await sessions.interrupt(c.req.param('id'))
    return c.json({ ok: true })
  })

  /**
   * Every line from where the page left off (Last-Event-ID), then live: none lost, none twice, the
   * stored ones a page at a time (hub/sessions/replay.ts). Between them, `partial` events (no id, so a
   * resume is unaffected): the assistant text being written, the text so far first, then each piece.
   */
  app.get('/api/sessions/:id/stream', async (c) => {
    const mayStillSee = stillOperator(c.get('browser'))
    const view = await sessions.view(c.req.param('id'))
    const from = Number(c.req.header('last-event-id') ?? c.req.query('after') ?? 0) || 0
    return streamSSE(c, async (stream) => {
      let replaying = true
      const partial = (piece: PartialPiece) =>
        stream.writeSSE({ event: 'partial', data: JSON.stringify(piece) })
      // Pieces during the replay are left out: the text so far follows it.
      const offPartial = sessions.onPartial((sid, piece) => {
        if (sid === view.id && !replaying) void partial(piece)
      })
      stream.onAbort(offPartial)
      const offLines = await replayThenLive(sessions, view.id, from, {
        write: (seq, json) => stream.writeSSE({ id: String(seq), event: 'line', data: json }),
        gone: () => stream.aborted,
      })
      stream.onAbort(offLines)
      if (stream.aborted) {
        offLines()
        return
      }
      replaying = false
      const sofar = sessions.partial(view.id)
      if (sofar) await partial(sofar)
      await holdOpen(stream, mayStillSee)
    })
  })

  app.post('/api/sessions/:id/model', async (c) => {
    await sessions.setModel(c.req.param('id'), (await body(c, modelSchema)).model)
    return c.json({ ok: true })
  })

  app.post('/api/sessions/:id/permission-mode', async (c) => {
    await sessions.setPermissionMode(c.req.param('id'), (await body(c, permissionModeSchema)).mode)
    return c.json({ ok: true })
  })

  // --- around the sessions ------------------------------------------------------------------
  app.get('/api/history', async (c) => {
    const listed = await sessions.listAll({ cwd: c.req.query('cwd') || undefined })
    const rows: HistoryRow[] = listed.map((s) => ({
      id: s.id,
      claudeSessionId: s.claudeSessionId,
      cwd: s.cwd,
      status: s.status,
      managed: s.managed,
      lastActivity: s.lastActivity,
      summary: s.summary,
    }))
    return c.json({ sessions: rows })
  })

  /** A Claude Code session from this machine's history, driven from here on (or a fork of it). */
  app.post('/api/history/:claudeSessionId/resume', async (c) => {
    const { cwd, prompt, fork } = await body(c, resumeSchema)
    const view = await sessions.create(prompt, {
      cwd,
      resume: c.req.param('claudeSessionId'),
      forkSession: fork,
    })
    return c.json({ id: view.id }, 201)
  })

  app.get('/api/channels', async (c) => {
    const channels: ChannelRow[] = (await hub.store.listSubscribers())
      .filter((s) => !s.name.startsWith('session:') && !s.name.startsWith('webhook:'))
      .map((s) => ({
        name: s.name,
        connected: hub.isConnected(s.name),
        rung: hub.connections.get(s.name)?.rung ?? null,
        pending: s.pending,
        topics: s.topics,
      }))
    return c.json({ channels })
  })

  app.get('/api/access', async (c) => {
    const senders = (await hub.store.listSenders())
      .filter((s) => s.status !== 'pending' && s.kind === 'token')
      .map(senderRow)
    const pairings = (await hub.access.pendingPairings()).map(decisionRow)
    return c.json({ senders, pairings })
  })

  app.post('/api/access/:name', async (c) => {
    const change = await body(c, senderChangeSchema)
    const name = c.req.param('name')
    const current = await hub.store.senderByName(name)
    if (!current) throw new HTTPException(404, { message: `no sender named "${name}"` })
    const sender = await hub.access.setStatus(
      name,
      change.status ?? (current.status === 'blocked' ? 'blocked' : 'allowed'),
      change.operator,
    )
    log.info({ sender: name, ...change, by: c.get('browser').name }, 'sender changed from the dashboard')
    return c.json({ sender: senderRow(sender) })
  })

  app.get('/api/health', async (c) => {
    const s = await status()
    const health: HubHealth = {
      version: s.version,
      startedAt: s.startedAt,
      connected: s.connected.length,
      liveSessions: s.liveSessions,
      openDecisions: s.openDecisions,
      bridges: s.bridges.map((b) => ({ platform: b.platform, state: b.state, lastError: b.lastError })),
    }
    return c.json(health)
  })

  // --- the web chat --------------------------------------------------------------------------
  app.post('/api/chat', async (c) => {
    const { text, to } = await body(c, chatMessageSchema)
    const browser = c.get('browser')
    const topic = `chat:http:${browser.name}`
    if (to !== undefined) {
      const subscriber = await hub.store.getSubscriber(to)
      if (!subscriber || !topicMatches(subscriber.topics, topic))
        throw new HTTPException(404, { message: `no session named "${to}" takes chat` })
    }
    const chat = await hub.store.chatFor('http', browser.id)
    const result = await hub.publish({
      topic,
      source: 'http',
      sender: browser.name,
      chat_id: chat.id,
      target: to ?? null,
      content: text,
      meta: {},
      idempotencyKey: c.req.header('idempotency-key') ?? null,
    })
    return c.json({ id: result.event.id, chat_id: chat.id, sessions: result.subscribers.length }, 202)
  })

  app.get('/api/chat/stream', (c) => {
    const browser = c.get('browser')
    const after = Number(c.req.header('last-event-id') ?? 0) || 0
    return streamSSE(c, async (stream) => {
      const off = await replies.follow(browser.id, after, (id, reply) => {
        void stream.writeSSE({ id: String(id), event: 'reply', data: JSON.stringify(reply) })
      })
      stream.onAbort(off)
      await holdOpen(stream, stillOperator(browser))
    })
  })

  // --- what flows through the hub ---------------------------------------------------------
  app.get('/api/events', async (c) => {
    const before = Number(c.req.query('before'))
    const events = await hub.store.searchEvents({
      text: c.req.query('q')?.slice(0, 200) || undefined,
      source: c.req.query('source') || undefined,
      beforeSeq: Number.isInteger(before) && before > 0 ? before : undefined,
      limit: EVENTS_PAGE,
    })
    const rows: EventRow[] = events.map((e) => ({
      seq: e.seq,
      id: e.id,
      topic: e.topic,
      source: e.source,
      sender: e.sender,
      content: e.content,
      meta: e.meta,
      createdAt: e.created_at,
    }))
    return c.json({ events: rows })
  })

  app.get('/api/sources', async (c) => {
    const sources: SourceRow[] = await Promise.all(
      (await hub.store.listSources()).map(async (s) => ({
        name: s.name,
        topic: s.topic,
        preset: s.preset ?? 'generic',
        deliveryHeader: s.deliveryHeader,
        createdAt: s.createdAt,
        lastEventAt: (await hub.store.searchEvents({ source: s.name, limit: 1 }))[0]?.created_at ?? null,
      })),
    )
    return c.json({ sources })
  })

  app.get('/api/outbound', async (c) => {
    const pending = new Map((await hub.store.listSubscribers()).map((s) => [s.name, s]))
    const webhooks: OutboundRow[] = (await hub.store.listOutboundWebhooks()).map((w) => ({
      name: w.name,
      url: w.url,
      topics: pending.get(w.name)?.topics ?? [],
      pending: pending.get(w.name)?.pending ?? 0,
      createdAt: w.createdAt,
    }))
    return c.json({ webhooks })
  })

  app.get('/api/outbound/:name/log', async (c) => {
    const log: OutboundLogRow[] = (await hub.store.outboundLog(c.req.param('name'), 100)).map((a) => ({
      eventId: a.eventId,
      attempt: a.attempt,
      status: a.status,
      error: a.error,
      at: a.at,
    }))
    return c.json({ log })
  })

  app.get('/api/peers', async (c) => c.json({ peers: await hub.peers.list() }))

  app.get('/api/decisions', async (c) => c.json({ decisions: await feed.open() }))

  /**
   * What every page follows, whichever it shows: decisions opened, answered or cancelled, and driven
   * sessions' turn ends (for notifications). One stream for both: a browser opens at most six
   * connections to a host, and a session's page holds its transcript's too.
   */
  app.get('/api/feed', (c) => {
    const mayStillSee = stillOperator(c.get('browser'))
    return streamSSE(c, async (stream) => {
      // A prompt goes out only to a browser that may answer it now, in the order the feed gave them.
      let writing = Promise.resolve()
      const offDecisions = feed.subscribe((row) => {
        writing = writing.then(async () => {
          if (await mayStillSee()) await stream.writeSSE({ event: 'changed', data: JSON.stringify(row) })
          else await stream.close()
        })
      })
      const offTurns = sessions.onLine((id, _seq, line) => {
        const turn = turnRow(id, line)
        if (turn) void stream.writeSSE({ event: 'turn', data: JSON.stringify(turn) })
      })
      stream.onAbort(() => {
        offDecisions()
        offTurns()
      })
      await holdOpen(stream, mayStillSee)
    })
  })

  app.post('/api/decisions/:id', async (c) => {
    const answer = await body(c, answerSchema)
    const browser = c.get('browser')
    const decision = await hub.store.getDecision(c.req.param('id'))
    if (!decision) throw new HTTPException(404, { message: 'no such decision' })
    if (decision.status !== 'open')
      throw new HTTPException(409, {
        message: `already ${decision.status}${decision.answeredBy ? ` by ${decision.answeredBy}` : ''}`,
      })
    if (decision.kind === 'pairing') {
      if (answer.behavior === 'allow') await hub.access.approvePairing(decision.code, { by: browser.name })
      else await hub.access.denyPairing(decision.code, browser.name)
    } else {
      await hub.decisions.answer(decision, answer, browser.name).catch((err: Error) => {
        throw new HTTPException(409, { message: err.message })
      })
    }
    const settled = await hub.store.getDecision(decision.id)
    return c.json({ decision: settled ? decisionRow(settled) : null })
  })

  // --- "always allow" rules ---------------------------------------------------------------
  app.get('/api/rules', async (c) => c.json({ rules: await hub.store.listRules() }))

  /** A rule made from an open prompt, which it then answers: "allow, and always". */
  app.post('/api/rules', async (c) => {
    const input = await body(c, newRuleSchema)
    const browser = c.get('browser')
    const decision = await hub.store.getDecision(input.decision)
    if (!decision) throw new HTTPException(404, { message: 'no such decision' })
    if (decision.status !== 'open')
      throw new HTTPException(409, {
        message: `already ${decision.status}${decision.answeredBy ? ` by ${decision.answeredBy}` : ''}`,
      })
    const folder = decision.owner.startsWith('ses_')
      ? await sessions.view(decision.owner).then(
          (v) => v.cwd,
          () => null,
        )
      : null
    const rule = await hub.decisions.rules
      .fromDecision(decision, input.scope, {
        folder,
        expiresInMinutes: input.expiresInMinutes ?? null,
        by: browser.name,
      })
      .catch((err: Error) => {
        throw new HTTPException(400, { message: err.message })
      })
    log.info(
      { rule: rule.id, tool: rule.toolName, scope: rule.scope, by: browser.name },
      'always-allow rule made',
    )
    await hub.decisions.answer(decision, { behavior: 'allow' }, browser.name).catch(() => {})
    return c.json({ rule }, 201)
  })

  app.delete('/api/rules/:id', async (c) => {
    if (!(await hub.store.removeRule(c.req.param('id'))))
      throw new HTTPException(404, { message: 'no such rule' })
    log.info({ rule: c.req.param('id'), by: c.get('browser').name }, 'always-allow rule revoked')
    return c.json({ ok: true })
  })

  app.get('/openapi.json', (c) => c.json(openApiDocument()))

  // --- the page ---------------------------------------------------------------------------
  app.get('*', (c) => serveStatic(c, c.req.path))

  return { app, signin }
}
