import { ensureHome, type HubConfig, paths, redactDatabaseUrl } from '../core/config.js'
import { invalid } from '../core/errors.js'
import type { DatabaseProbe } from './postgres/probe.js'
import { openSqliteStore, type SqliteOptions } from './sqlite/index.js'
import type { Store } from './store.js'

/**
 * The store the configuration names: Postgres when a database URL is set (several hubs may share
 * it), else the home's SQLite file, the embedded default.
 */
export async function openStore(
  config: Pick<HubConfig, 'home' | 'databaseUrl'>,
  options: SqliteOptions = {},
): Promise<Store> {
  ensureHome(config.home)
  if (!config.databaseUrl) return openSqliteStore(paths.database(config.home), options)
  // Loaded only here: a hub on SQLite never loads the Postgres client.
  const { openPostgresStore } = await import('./postgres/index.js')
  try {
    return await openPostgresStore(config.databaseUrl)
  } catch (err) {
    throw invalid(
      `cannot use the database ${redactDatabaseUrl(config.databaseUrl)}: ${(err as Error).message || (err as NodeJS.ErrnoException).code}`,
    )
  }
}

/** Doctor's look at the configured Postgres database, read-only and without a migration. */
export async function probeDatabase(databaseUrl: string): Promise<DatabaseProbe> {
  const { probePostgres } = await import('./postgres/probe.js')
  return probePostgres(databaseUrl)
}
