// What doctor asks of a Postgres database without opening the store: whether this machine reaches it,
// and which hubs hold a live lease on it. It reads only, and runs no migration, so the hub stays the
// store's one writer.
import pg from 'pg'

export interface DatabaseProbe {
  /** The hubs alive on the database: each one's note (its address) or, without one, its holder. */
  hubs: string[]
}

export async function probePostgres(url: string): Promise<DatabaseProbe> {
  const client = new pg.Client({ connectionString: url })
  // A connection the server drops errors on the client; the query that was waiting says so.
  client.on('error', () => {})
  await client.connect()
  try {
    // A database no hub has used yet has no leases table: no hub is alive on it.
    const table = await client.query<{ found: string | null }>("SELECT to_regclass('leases') AS found")
    if (!table.rows[0]?.found) return { hubs: [] }
    const rows = await client.query<{ holder: string; note: string | null }>(
      "SELECT holder, note FROM leases WHERE name LIKE 'hub:%' AND expires_at > $1 ORDER BY name",
      [Date.now()],
    )
    return { hubs: rows.rows.map((r) => r.note ?? r.holder) }
  } finally {
    await client.end()
  }
}
