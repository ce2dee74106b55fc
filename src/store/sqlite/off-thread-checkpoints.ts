// The hub's side of its WAL checkpoints: SQLite's own (inside whichever commit crosses 1,000 pages)
// turned off, and a worker thread (checkpointer.ts) that runs them every second instead, started once
// the log has grown past WORKER_FROM_BYTES. Most hubs never write that much, and a thread with its own
// copy of SQLite cost a hub's start a sixth of its CPU and kept costing a little every second.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'
import { PACKAGE_ROOT } from '../../core/install-root.js'
import type { CheckpointerData } from './checkpointer.js'

const CHECKPOINT_EVERY_MS = 1_000
/** Until the log holds this much, it is left to grow: nothing has to be copied back yet. */
export const WORKER_FROM_BYTES = 1024 * 1024

export interface OffThreadCheckpoints {
  /** Stops the checks, and the worker after a last checkpoint once it has. */
  stop(): Promise<void>
}

export function checkpointOffThread(
  db: Database.Database,
  file: string,
  onError: (message: string) => void = () => {},
): OffThreadCheckpoints {
  db.pragma('wal_autocheckpoint = 0')
  let worker: Worker | null = null
  const watch = setInterval(() => {
    if ((statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) < WORKER_FROM_BYTES) return
    clearInterval(watch)
    worker = startWorker(file, onError)
  }, CHECKPOINT_EVERY_MS)
  watch.unref()
  return {
    async stop() {
      clearInterval(watch)
      if (!worker) return
      const running = worker
      const exited = new Promise((resolve) => running.once('exit', resolve))
      // Unref'd so it never keeps a hub alive; while closing, the wait for it must keep this one alive.
      running.ref()
      running.postMessage('stop')
      await exited
    },
  }
}

function startWorker(file: string, onError: (message: string) => void): Worker {
  const data: CheckpointerData = { file, everyMs: CHECKPOINT_EVERY_MS }
  const worker = new Worker(join(PACKAGE_ROOT, 'dist/store/sqlite/checkpointer.js'), { workerData: data })
  worker.unref()
  worker.on('message', (m: { error?: string }) => m.error && onError(m.error))
  worker.on('error', (err) => onError(err.message))
  return worker
}
