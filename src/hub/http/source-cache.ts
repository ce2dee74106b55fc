// Webhook sources as the hub sees them: read from the store at most once a second per name.
// The CLI changes sources in the store directly, so a removed source or a new secret takes effect
// within a second; a new source is looked up at once (misses are not cached).
import type { Source, Store } from '../../store/store.js'

/** How long a hub may go on using what it read of a source (`switchboard source rotate` waits it out). */
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
}
