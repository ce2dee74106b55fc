import { ensureHome, type HubConfig, paths } from '../core/config.js'
import { openSqliteStore, type SqliteOptions } from './sqlite/index.js'
import type { Store } from './store.js'

/** The store a home folder names. SQLite is the embedded default. */
export function openStore(config: Pick<HubConfig, 'home'>, options: SqliteOptions = {}): Store {
  ensureHome(config.home)
  return openSqliteStore(paths.database(config.home), options)
}
