// Who may do what: browsers signing in and out (and signed out from another), who is asking, the
// senders and pairing requests, and a sign-in link for `switchboard open`.
import { Hono } from 'hono'
import { notFound, unauthorized } from '../../core/errors.js'
import { browserRow, decisionRow, senderRow } from '../people/views.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'

export function peopleRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, signin, log } = parts

  defineRoute(app, creds, 'signin', async (c, { body }) => {
    const signedIn = await signin.redeem(body.token, { userAgent: c.req.header('user-agent') ?? null })
    if (!signedIn)
      throw unauthorized('this sign-in link was used already or has expired; run `switchboard open` again')
    log.info({ browser: signedIn.sender.name }, 'dashboard signed in')
    return { key: signedIn.key, name: signedIn.sender.name, expiresAt: signedIn.sender.expiresAt ?? 0 }
  })

  defineRoute(app, creds, 'signout', async (_c, { who }) => {
    if (who.kind === 'browser') {
      await hub.access.signOut(who.sender)
      log.info({ browser: who.sender.name }, 'dashboard signed out')
    }
    return { ok: true as const }
  })

  defineRoute(app, creds, 'me', (_c, { who }) =>
    who.kind === 'browser'
      ? { name: who.sender.name, operator: who.sender.operator, expiresAt: who.sender.expiresAt }
      : { name: nameOf(who), operator: true, expiresAt: null },
  )

  defineRoute(app, creds, 'browsers', async (_c, { who }) => {
    const me = who.kind === 'browser' ? who.sender.id : null
    return { browsers: (await hub.access.list('browser')).map((b) => browserRow(b, me)) }
  })

  /** Signs a browser out from another: its key stops working and its streams close. */
  defineRoute(app, creds, 'revokeBrowser', async (_c, { params, who }) => {
    const target = await hub.access.find(params.name)
    if (target?.kind !== 'browser') throw notFound(`no browser named "${params.name}"`)
    await hub.access.signOut(target)
    log.info({ browser: target.name, by: nameOf(who) }, 'browser signed out')
    return { ok: true as const }
  })

  defineRoute(app, creds, 'signinLink', () => parts.signinLink())

  defineRoute(app, creds, 'access', async () => {
    const senders = (await hub.access.list('token')).filter((s) => s.status !== 'pending').map(senderRow)
    const pairings = (await hub.access.pendingPairings()).map(decisionRow)
    return { senders, pairings }
  })

  defineRoute(app, creds, 'changeSender', async (_c, { params, body, who }) => {
    const current = await hub.access.find(params.name)
    if (!current) throw notFound(`no sender named "${params.name}"`)
    const sender = await hub.access.setStatus(
      params.name,
      body.status ?? (current.status === 'blocked' ? 'blocked' : 'allowed'),
      body.operator,
    )
    log.info({ sender: params.name, ...body, by: nameOf(who) }, 'sender changed')
    return { sender: senderRow(sender) }
  })

  defineRoute(app, creds, 'notices', async (_c, { params }) => {
    const sender = await hub.access.find(params.name)
    if (!sender) throw notFound(`no sender named "${params.name}"`)
    return { sender: sender.name, kinds: await hub.decisions.noticeChoice(sender.id) }
  })

  defineRoute(app, creds, 'chooseNotices', async (_c, { params, body, who }) => {
    const sender = await hub.access.find(params.name)
    if (!sender) throw notFound(`no sender named "${params.name}"`)
    await hub.decisions.chooseNotices(sender.id, body.kinds)
    log.info({ sender: sender.name, notices: body.kinds, by: nameOf(who) }, 'notices chosen')
    return { sender: sender.name, kinds: await hub.decisions.noticeChoice(sender.id) }
  })
  return app
}
