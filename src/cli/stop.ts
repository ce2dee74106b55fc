// `switchboard stop`: this home's hub ends cleanly (SIGTERM, as Ctrl-C would end it), and a marker in
// the home keeps channels, `mcp` and hooks from starting it again until `switchboard start` or `serve`.
// Channels connected to it stay and wait for it. Stopping a hub that does not run is no error; one
// that runs and does not answer is, said as it is seen (its pid, its port), not as "not running".
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import type { Command } from 'commander'
import { HubApi, HubApiError } from '../client/api-client.js'
import { markStopped, START_AGAIN } from '../client/autostart.js'
import { localSocket } from '../client/hub-address.js'
import { dialHost, type HubConfig, paths } from '../core/config.js'
import { invalid, unavailable } from '../core/errors.js'
import { type HubStatus, isHubOwnSubscriber } from '../core/hub-protocol.js'
import { createCliLogger } from '../core/log.js'
import { processAlive } from '../core/process-alive.js'
import { configFrom } from './options.js'
import { printJson } from './output.js'

/** How long a hub may take to end its sessions' CLIs and close its store. */
const STOP_WAIT_MS = 20_000

export interface StopResult {
  home: string
  /** The pid of the hub that was stopped; null when none ran. */
  stopped: number | null
  /** The channels that were connected to it: they wait for it now. */
  channels: string[]
}

/** Stops this home's own hub (never another of SWITCHBOARD_HUBS), leaving the marker first. */
export async function stopHub(config: HubConfig): Promise<StopResult> {
  const result: StopResult = { home: config.home, stopped: null, channels: [] }
  if (!existsSync(config.home)) return result
  // First the marker: a channel that sees the hub go must already find it.
  markStopped(config.home)
  let status: HubStatus
  try {
    status = await new HubApi({ ...config, hubs: [] }, createCliLogger('stop', config), false).call('status')
  } catch (err) {
    // 502: a stranger holds the port, and it is not ours to stop.
    if (err instanceof HubApiError && err.status === 502) return result
    if (!(err instanceof HubApiError && err.status === 503)) throw err
    // 503: nothing answered; perhaps something is there all the same.
    const silent = await silentHolder(config)
    if (silent) throw unavailable(silent)
    return result
  }
  if (status.home !== config.home)
    throw invalid(`the hub on port ${config.port} serves ${status.home}, not ${config.home}; not stopping it`)
  result.channels = status.connected.map((c) => c.name).filter((name) => !isHubOwnSubscriber(name))
  try {
    process.kill(status.pid, 'SIGTERM')
  } catch {
    // ended meanwhile
  }
  const deadline = Date.now() + STOP_WAIT_MS
  while (!gone(status.pid)) {
    if (Date.now() > deadline)
      throw invalid(
        `the hub (pid ${status.pid}) did not stop within ${STOP_WAIT_MS / 1000} s; end it: kill -9 ${status.pid}`,
      )
    await new Promise((r) => setTimeout(r, 50))
  }
  result.stopped = status.pid
  return result
}

/** Ended: no such process, or one that is only waiting to be reaped. */
function gone(pid: number): boolean {
  if (!processAlive(pid)) return true
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false // no /proc here: alive is alive
  }
}

/**
 * What holds this home's hub's port or socket without answering, in one line; null: nothing does. A
 * hub whose event loop never comes back holds both, and its hub.json names it.
 */
async function silentHolder(config: HubConfig): Promise<string | null> {
  const info = hubInfo(config.home)
  const port = info.port ?? config.port
  if (info.pid !== undefined && hubRuns(info.pid))
    return `the hub (pid ${info.pid}) holds port ${port} but does not answer; not stopped: end it with kill -9 ${info.pid}`
  const socketPath = localSocket(config)
  if (
    (await accepts({ host: dialHost(config.host), port })) ||
    (socketPath && (await accepts({ path: socketPath })))
  )
    return `something holds port ${port} but does not answer as a hub; not stopped`
  return null
}

/** What hub.json says of the hub that wrote it; nothing when there is none (none runs, or it stopped cleanly). */
function hubInfo(home: string): { pid?: number; port?: number } {
  try {
    const info = JSON.parse(readFileSync(paths.hubInfo(home), 'utf8')) as { pid?: unknown; port?: unknown }
    return {
      ...(Number.isSafeInteger(info.pid) ? { pid: info.pid as number } : {}),
      ...(Number.isSafeInteger(info.port) ? { port: info.port as number } : {}),
    }
  } catch {
    return {}
  }
}

/** A live `switchboard serve`: a hub that died uncleanly leaves hub.json, and its pid may be another's now. */
function hubRuns(pid: number): boolean {
  if (gone(pid)) return false
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('serve')
  } catch {
    return true // no /proc here: alive is alive
  }
}

/** Whether something takes a connection there (a listener that never answers still does). */
function accepts(where: { host: string; port: number } | { path: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(where)
    const done = (taken: boolean) => {
      socket.destroy()
      resolve(taken)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    // The system completes a connection to a listener that never accepts it: nothing opening soon is
    // nothing there (an address that no longer routes, say).
    socket.setTimeout(1_000, () => done(false))
  })
}

/** One line for a person. */
export function describeStop(r: StopResult): string {
  if (r.stopped === null)
    return existsSync(r.home)
      ? `hub: not running (home ${r.home}); channels will not start it (${START_AGAIN})`
      : `hub: not running (no home at ${r.home})`
  const waiting = r.channels.length
    ? `; ${r.channels.length} channel${r.channels.length === 1 ? '' : 's'} (${r.channels.join(', ')}) wait for it and will not start it`
    : ''
  return `hub: stopped (pid ${r.stopped})${waiting}; ${START_AGAIN}`
}

export function registerStop(program: Command): void {
  program
    .command('stop')
    .description(
      'stop this home’s hub; channels wait for it and do not start it again until switchboard start',
    )
    .option('--json', 'one JSON object, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const result = await stopHub(configFrom(command))
      if (opts.json) printJson(result)
      else process.stdout.write(`${describeStop(result)}\n`)
    })
}
