// `switchboard serve`: the hub, one per home and port; a busy port or home is refused with who holds it.
// A person at a terminal gets a banner and the logs go to the home's log file, and Ctrl-C there is a
// stop on purpose (channels wait for the hub, as after `switchboard stop`); --log-json keeps them as
// JSON lines on stderr (a service manager, autostart), --json prints the banner as JSON.
import { existsSync, readFileSync } from 'node:fs'
import { type Command, Option } from 'commander'
import {
  clearStopped,
  markStopped,
  rotateHubLog,
  startRefused,
  stoppedAtTerminal,
} from '../client/autostart.js'
import { reach, tcpTarget } from '../client/hub-address.js'
import { readAdminToken } from '../core/admin-token.js'
import { ensureHome, type HubConfig, paths } from '../core/config.js'
import { invalid } from '../core/errors.js'
import { pinText } from '../core/fingerprint.js'
import { createLogger } from '../core/log.js'
import { isLoopback } from '../core/network.js'
import { processAlive } from '../core/process-alive.js'
import { channelRows } from '../hub/core/reads.js'
import { HubUnwanted, startHub } from '../hub/server.js'
import { openStore } from '../store/open.js'
import { banner, bannerJson } from './banner.js'
import { claudeConnection } from './claude-connection.js'
import { configFrom, settingOptions } from './options.js'

interface ServeOptions {
  json?: boolean
  logJson?: boolean
  unlessStopped?: boolean
}

export function registerServe(program: Command): void {
  // --host, --tls-cert, --lease-ms and the hub's other settings come from the settings table.
  settingOptions(
    program
      .command('serve')
      .description('run the hub: durable store, webhooks, senders, the hub socket for channels'),
  )
    .option(
      '--json',
      'once the hub runs, one JSON line on stdout (pid, url, home, log) instead of the banner',
    )
    .option(
      '--log-json',
      'no banner; logs as JSON lines on stderr even at a terminal (for a service manager)',
    )
    // Autostart's: a `switchboard stop` that came after the decision to start still wins.
    .addOption(new Option('--unless-stopped').hideHelp())
    .action(async (opts: ServeOptions, command: Command) => {
      const resolved = configFrom(command)
      let config = resolved
      // Autostart's hub is wanted while its home is there and not stopped on purpose. Its process
      // can take seconds to get here, and a stop or a removed home meanwhile wins: asked again once
      // it holds the port (a hub being stopped may hold it until then), before anything runs.
      const unwanted = () => (opts.unlessStopped ? startRefused(config.home) : null)
      let before = unwanted()
      if (!before) {
        await refuseSecondHub(config)
        before = unwanted()
      }
      if (before) {
        createLogger('hub', config).info({ home: config.home }, `${before}; not starting`)
        return
      }
      ensureHome(config.home)
      // Serving is what "start" means: channels may start this hub again from now on.
      if (!opts.unlessStopped) clearStopped(config.home)
      // A person at a terminal reads the banner; the logs go to the home's log file instead.
      const person = !opts.logJson && process.stderr.isTTY === true
      if (person && !config.logFile) config = { ...config, logFile: rotateHubLog(config.home) }
      const log = createLogger('hub', config)
      // The hub delivers from its event loop: WAL checkpoints go to a worker thread.
      const store = await openStore(config, {
        checkpoints: 'worker',
        onCheckpointError: (message) => log.warn({ message }, 'WAL checkpoint failed'),
      })
      let running: Awaited<ReturnType<typeof startHub>>
      try {
        running = await startHub(config, store, log, unwanted, resolved)
      } catch (err) {
        await store.close()
        if (err instanceof HubUnwanted) {
          log.info({ home: config.home }, `${err.message}; leaving`)
          // What the hub's parts set going before it held the port (timers) must not keep it here.
          process.exit(0)
        }
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err
        // Autostart relies on this too: of two hubs started at once, the loser says so and leaves.
        throw invalid(
          (await ourHubAnswers(config, config.port))
            ? `this home's hub already answers on ${config.host}:${config.port}; switchboard status says more`
            : `port ${config.port} on ${config.host} is in use by another program; pick another: switchboard serve --port <port> (or "port" in ${config.home}/config.json)`,
        )
      }
      const shown = {
        pid: process.pid,
        home: config.home,
        host: config.host,
        port: running.port,
        log: config.logFile ?? 'stderr',
        tls: running.fingerprint !== null,
      }
      if (opts.json) process.stdout.write(bannerJson(shown))
      else if (!opts.logJson) {
        const channels = (await channelRows(running.hub)).map((c) => c.name)
        process.stdout.write(banner(shown, true, { claude: claudeConnection(process.cwd()), channels }))
      }
      // What a person starting a hub for a network must know, in a line each.
      if (running.fingerprint)
        process.stderr.write(
          `switchboard: TLS with certificate ${pinText(running.fingerprint)}; other machines name this hub SWITCHBOARD_HUBS=${running.address}\n`,
        )
      else if (!isLoopback(config.host))
        process.stderr.write(
          `switchboard: --insecure: plain HTTP on ${config.host}:${running.port}; anyone on the network can read and change what passes (webhooks, messages, sign-in links), and no channel or CLI elsewhere sends the admin token to it\n`,
        )
      const stop = async (signal: string) => {
        log.info({ signal }, 'hub stopping')
        // Ctrl-C (or a kill) of a hub a person runs at a terminal is meant as `switchboard stop` is:
        // channels wait for it. A crash is no signal, and autostart's hub (--log-json) has no terminal.
        if (person && existsSync(config.home)) markStopped(config.home, stoppedAtTerminal(signal))
        await running.close()
        if (!opts.json && !opts.logJson) process.stdout.write('hub stopped\n')
        process.exit(0)
      }
      process.once('SIGINT', () => void stop('SIGINT'))
      process.once('SIGTERM', () => void stop('SIGTERM'))
    })
}

/** One hub per home: two would share one database and hand out the same seqs. */
async function refuseSecondHub(config: HubConfig): Promise<void> {
  const { home } = config
  let info: { pid?: number; port?: number }
  try {
    info = JSON.parse(readFileSync(paths.hubInfo(home), 'utf8'))
  } catch {
    return // no hub.json: no hub, or one that stopped cleanly
  }
  if (!info.pid || !info.port || !processAlive(info.pid)) return
  // A pid can be reused after a crash: only a hub that answers on its port holds the home.
  if (!(await ourHubAnswers(config, info.port))) return
  throw invalid(
    `a hub of ${home} already runs (pid ${info.pid}, port ${info.port}); stop it first, or use another --home`,
  )
}

/** Whether this home's hub answers on `port` (a hub that proves it holds this home's admin token). */
async function ourHubAnswers(config: HubConfig, port: number): Promise<boolean> {
  const answer = await reach(tcpTarget({ ...config, port }), readAdminToken(config))
  return answer.answered && answer.proven
}
