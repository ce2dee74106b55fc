// When no hub answers, a channel starts one: detached, on the same home and port, logging to a file.
// Two starting at once is harmless: the port is the lock, and the loser exits. A hub stopped on
// purpose (`switchboard stop`, or Ctrl-C where it runs at a terminal: either leaves a marker in the
// home) or whose home was removed is not started again: the channel waits for it and says so once.
import { spawn } from 'node:child_process'
import {
  closeSync,
  existsSync,
  fchmodSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { type HubConfig, paths } from '../core/config.js'
import { CLI_ENTRY } from '../core/install-root.js'
import type { Logger } from '../core/log.js'

const RESTART_GAP_MS = 3_000
/** A log past this size is moved aside (one generation kept) when the next hub starts. */
const MAX_LOG_BYTES = 10 * 1024 * 1024

/** Left in the home by `switchboard stop` and a hub stopped at its terminal; `serve` and `start` take it away. */
export const stopMarker = (home: string) => join(home, 'hub.stopped')

/** What a person types to have the hub back, for every message that says it is stopped. */
export const START_COMMAND = 'switchboard start (or switchboard serve)'
export const START_AGAIN = `start it again: ${START_COMMAND}`

/** How a hub was stopped on purpose, as the marker records it and every message says it. */
export const STOPPED_WITH_STOP = 'with switchboard stop'
export const stoppedAtTerminal = (signal: string) =>
  `with ${signal === 'SIGINT' ? 'Ctrl-C' : signal} at its terminal`

/** How this home's hub was stopped on purpose ("with switchboard stop", …), or null when it was not. */
export function stoppedHow(home: string): string | null {
  let marker: string
  try {
    marker = readFileSync(stopMarker(home), 'utf8')
  } catch {
    return null
  }
  // "<time> <how>"; a marker of an earlier version holds the time alone.
  return /^\S+ (with .+)$/m.exec(marker)?.[1] ?? STOPPED_WITH_STOP
}

export function stoppedOnPurpose(home: string): boolean {
  return existsSync(stopMarker(home))
}

/** "the hub of <home> was stopped with …", or null when it was not stopped on purpose. */
export function stoppedText(home: string): string | null {
  const how = stoppedHow(home)
  return how === null ? null : `the hub of ${home} was stopped ${how}`
}

export function markStopped(home: string, how = STOPPED_WITH_STOP): void {
  writeFileSync(stopMarker(home), `${new Date().toISOString()} ${how}\n`, { mode: 0o600 })
}

export function clearStopped(home: string): void {
  rmSync(stopMarker(home), { force: true })
}

/** Why no hub may be started for this home now, or null when one may. */
export function startRefused(home: string): string | null {
  // A home removed under a running channel (uninstall --purge) is not made again by it.
  if (!existsSync(home)) return `${home} is gone; not starting a hub there`
  const stopped = stoppedText(home)
  if (stopped) return `${stopped}; waiting for it (${START_AGAIN})`
  return null
}

/** Moves the home's hub log aside (one generation kept) when it has grown large; returns its path. */
export function rotateHubLog(home: string): string {
  const file = paths.hubLog(home)
  try {
    if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`)
  } catch {
    // no log yet
  }
  return file
}

/** Opens the home's hub log for appending (0600), moving a large one aside first. */
function openHubLog(home: string): number {
  const fd = openSync(rotateHubLog(home), 'a', 0o600)
  fchmodSync(fd, 0o600)
  return fd
}

/** Starts this home's hub in the background, its output in the home's log; returns its pid. */
export function spawnHub(config: HubConfig, extra: string[] = []): number | undefined {
  const args = [...process.execArgv, CLI_ENTRY, 'serve', '--home', config.home, '--port', String(config.port)]
  if (config.host !== '127.0.0.1') args.push('--host', config.host)
  // No banner, logs as JSON on stderr: both go into the log file.
  args.push('--log-json', ...extra)
  const logFile = openHubLog(config.home)
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', logFile, logFile],
    env: process.env,
  })
  child.unref()
  closeSync(logFile)
  return child.pid
}

/**
 * What a channel (or `switchboard mcp`, a hook) calls each time it finds no hub: a hub is started,
 * at most once per RESTART_GAP_MS, unless startRefused says otherwise; each new reason is logged
 * once (a stopped hub whose home is then removed says both, in that order).
 */
export function hubStarter(
  config: HubConfig,
  log: Logger,
  // Tests count the starts on a clock of their own instead of spawning hubs.
  {
    start = () => spawnHub(config, ['--unless-stopped']),
    now = Date.now,
  }: { start?: () => number | undefined; now?: () => number } = {},
): () => void {
  let lastStart = Number.NEGATIVE_INFINITY
  let refusalSaid: string | null = null
  return () => {
    const refused = startRefused(config.home)
    if (refused) {
      if (refused !== refusalSaid) log.warn({ home: config.home }, refused)
      refusalSaid = refused
      return
    }
    refusalSaid = null
    const at = now()
    if (at - lastStart < RESTART_GAP_MS) return
    lastStart = at
    // --unless-stopped: a `switchboard stop` between this check and the hub's start still counts.
    let pid: number | undefined
    try {
      pid = start()
    } catch (err) {
      // The home's log folder going with the home, say: the next try asks startRefused again.
      log.warn(
        { home: config.home, err: (err as Error).message },
        'no hub answered, and none could be started',
      )
      return
    }
    log.info({ pid, port: config.port }, 'no hub answered; started one')
  }
}
