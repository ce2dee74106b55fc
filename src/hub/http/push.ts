// Web Push for the dashboard with the page closed: the hub's public key a browser subscribes with,
// the browsers subscribed (listed, revoked), a subscription taken, and a test push (hub/people/push.ts).
import { Hono } from 'hono'
import { subscriberOf } from '../people/push.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf, type Principal } from './principal.js'

/** The sender asking, if it is one (a browser, or a sender's token); the admin token is none. */
function senderOf(who: Principal) {
  return who.kind === 'browser' || who.kind === 'sender' ? who.sender : null
}

export function pushRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { creds, push } = parts

  defineRoute(app, creds, 'pushKey', async () => ({ publicKey: await push.publicKey() }))

  defineRoute(app, creds, 'pushSubscriptions', async (_c, { who }) => ({
    subscriptions: await push.list(senderOf(who)?.id ?? null),
  }))

  defineRoute(app, creds, 'pushSubscribe', async (c, { body, who }) => ({
    subscription: await push.subscribe(subscriberOf(senderOf(who)), body, c.req.header('user-agent') ?? null),
  }))

  defineRoute(app, creds, 'revokePush', async (_c, { params, who }) => {
    await push.revoke(params.id, nameOf(who))
    return { removed: params.id }
  })

  defineRoute(app, creds, 'pushTest', async (_c, { who }) => ({
    sent: await push.test(subscriberOf(senderOf(who))),
  }))
  return app
}
