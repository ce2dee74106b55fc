// The push area, on either store: one row of keys, written once, and a row per subscribed browser.
import type { PushStore } from '../push.js'
import { toPushSubscription } from '../rows.js'
import type { Sql } from './sql.js'

export function pushStore(sql: Sql): PushStore {
  return {
    async pushKeys(make) {
      const stored = await sql.get('SELECT public_key, private_key FROM push_keys WHERE id = 1')
      if (stored) return { publicKey: stored.public_key as string, privateKey: stored.private_key as string }
      const made = make()
      // Two hubs starting at once: the first insert stands, and both read it.
      await sql.run(
        `INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO NOTHING`,
        [made.publicKey, made.privateKey, Date.now()],
      )
      const row = await sql.get('SELECT public_key, private_key FROM push_keys WHERE id = 1')
      return { publicKey: row?.public_key as string, privateKey: row?.private_key as string }
    },

    async addPushSubscription(input) {
      const row = await sql.get(
        `INSERT INTO push_subscriptions (id, sender_id, endpoint, p256dh, auth, display_name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (endpoint) DO UPDATE SET id = excluded.id, sender_id = excluded.sender_id,
           p256dh = excluded.p256dh, auth = excluded.auth, display_name = excluded.display_name,
           created_at = excluded.created_at
         RETURNING *`,
        [input.id, input.senderId, input.endpoint, input.p256dh, input.auth, input.displayName, Date.now()],
      )
      return toPushSubscription(row as NonNullable<typeof row>)
    },

    async listPushSubscriptions() {
      return (await sql.all('SELECT * FROM push_subscriptions ORDER BY created_at, id')).map(
        toPushSubscription,
      )
    },

    async removePushSubscription(id) {
      return (await sql.run('DELETE FROM push_subscriptions WHERE id = $1', [id])) > 0
    },
  }
}
