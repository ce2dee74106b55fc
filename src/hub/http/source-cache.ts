// Webhook sources as the hub sees them: read from the store at most once a second per name. This
// hub's own API changes sources (source-admin.ts), and drops what it cached of one it changed, so a
// removed source or a new secret takes effect here at once; a new source is looked up at once
// (misses are not cached). Other hubs on a shared database hear of a change (hub-events'
// sourceChanged, wired in assemble.ts) and drop it too; SOURCE_CACHE_MS bounds a notice that was lost.
import type { Source, Store } from '../../store/store.js'

/** How long a hub may go on using what it read of a source another hub changed. */
export const SOURCE_CACHE_MS = 1_000

export class SourceCache {
  private readonly entries = new Map<string, { source: Source; until: number }>()

  constructor(private readonly store: Store) {}

  /** The source when it was read less than a second ago, without a trip through the event loop. */
  cached(name: string, now = Date.now()): Source | null {
    const hit = this.entries.get(name)
    return hit && hit.until > now ? hit.source : null
  }

  async get(name: string, now = Date.now()): Promise<Source | null> {
    const hit = this.cached(name, now)
    if (hit) return hit
    const source = await this.store.getSource(name)
    if (source) this.entries.set(name, { source, until: now + SOURCE_CACHE_MS })
    else this.entries.delete(name)
    return source
  }

  /** The source changed (null: any may have): the next request reads it again. */
  forget(name: string | null): void {
    if (name === null) this.entries.clear()
    else this.entries.delete(name)
  }
}
