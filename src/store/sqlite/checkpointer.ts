// A worker thread of the hub that checkpoints the WAL: copying the log into the database file and
// syncing it takes milliseconds, and on the event loop those would stall the deliveries behind it.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'

export interface CheckpointerData {
  file: string
  everyMs: number
}

const { file, everyMs } = workerData as CheckpointerData
const db = new Database(file)
db.pragma('busy_timeout = 5000')
// PASSIVE never waits for the hub's writes: it copies what it can, and the next writer restarts
// the log once all of it is in the database file.
function checkpoint(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (err) {
    parentPort?.postMessage({ error: (err as Error).message })
  }
}
// Started because the log has grown: the first one is now.
checkpoint()
const timer = setInterval(checkpoint, everyMs)

parentPort?.on('message', (message) => {
  if (message !== 'stop') return
  clearInterval(timer)
  checkpoint()
  db.close()
  parentPort?.close()
})
