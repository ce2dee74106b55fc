// Retention: what is older than `retentionDays` and needed by nobody is deleted, a small batch at a
// time, off the request path (each batch yields to the event loop before the next).
import type { Logger } from '../../core/log.js'
import type { Store } from '../../store/store.js'

const BATCH = 500
const DAY_MS = 24 * 60 * 60 * 1000
/** Often enough that a day's stream is never far over the limit; rarely enough to cost nothing. */
const MAX_EVERY_MS = 10 * 60 * 1000

export function startRetention(store: Store, retentionDays: number, log: Logger): { stop(): void } {
  const keepMs = retentionDays * DAY_MS
  const everyMs = Math.max(200, Math.min(MAX_EVERY_MS, keepMs / 4))
  let stopped = false
  let running = false

  async function sweep(): Promise<void> {
    if (running) return
    running = true
    try {
      let total = 0
      for (;;) {
        const n = await store.prune(Date.now() - keepMs, BATCH)
        total += n
        if (n === 0 || stopped) break
        await new Promise((resolve) => setImmediate(resolve))
      }
      if (total) log.info({ deleted: total, retentionDays }, 'retention: old rows deleted')
    } catch (err) {
      log.error({ err }, 'retention sweep failed')
    } finally {
      running = false
    }
  }

  const timer = setInterval(() => void sweep(), everyMs)
  timer.unref()
  return {
    stop() {
      stopped = true
      clearInterval(timer)
    },
  }
}
