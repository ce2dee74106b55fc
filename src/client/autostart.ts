// When no hub answers, a channel starts one: detached, on the same home and port, logging to a file.
// Two starting at once is harmless: the port is the lock, and the loser exits.
import { spawn } from 'node:child_process'
import { closeSync, fchmodSync, openSync, renameSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type HubConfig, paths } from '../core/config.js'
import type { Logger } from '../core/log.js'

const RESTART_GAP_MS = 3_000
/** A log past this size is moved aside (one generation kept) when the next hub starts. */
const MAX_LOG_BYTES = 10 * 1024 * 1024

function rotate(file: string): void {
  try {
    if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`)
  } catch {
    // no log yet
  }
}

export function hubStarter(config: HubConfig, log: Logger): () => void {
  let lastStart = 0
  return () => {
    const now = Date.now()
    if (now - lastStart < RESTART_GAP_MS) return
    lastStart = now
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
    const entry = fileURLToPath(new URL(`../cli/main${ext}`, import.meta.url))
    const args = [...process.execArgv, entry, 'serve', '--home', config.home, '--port', String(config.port)]
    if (config.host !== '127.0.0.1') args.push('--host', config.host)
    rotate(paths.hubLog(config.home))
    const logFile = openSync(paths.hubLog(config.home), 'a', 0o600)
    fchmodSync(logFile, 0o600)
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', logFile, logFile],
      env: process.env,
    })
    child.unref()
    closeSync(logFile)
    log.info({ pid: child.pid, port: config.port }, 'no hub answered; started one')
  }
}
