// `switchboard start`: this home's hub in the background (as a channel would start it), after a
// `switchboard stop` or instead of keeping a terminal open for `serve`; prints where it runs.
import type { Command } from 'commander'
import { HubApi, HubApiError } from '../client/api-client.js'
import { clearStopped } from '../client/autostart.js'
import { ensureHome, paths } from '../core/config.js'
import type { HubStatus } from '../core/hub-protocol.js'
import { createCliLogger } from '../core/log.js'
import { banner, bannerJson } from './banner.js'
import { claudeConnection } from './claude-connection.js'
import { configFrom } from './options.js'

export function registerStart(program: Command): void {
  program
    .command('start')
    .description(
      'start this home’s hub in the background (undoes switchboard stop); see serve for the foreground',
    )
    .option('--json', 'one JSON line (pid, url, home, log), for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const config = { ...configFrom(command), hubs: [] }
      ensureHome(config.home)
      clearStopped(config.home)
      // "Started one" is what the banner says anyway.
      const log = createCliLogger('start', config).child({}, { level: 'warn' })
      let status: HubStatus
      let already = true
      let hub = new HubApi(config, log, false)
      try {
        status = await hub.call('status')
      } catch (err) {
        if (!(err instanceof HubApiError) || err.status !== 503) throw err
        already = false
        // A home whose hub never ran has no admin token yet: the starting client makes it.
        hub = new HubApi(config, log, true)
        status = await hub.call('status')
      }
      const shown = {
        pid: status.pid,
        home: status.home,
        host: status.host,
        port: status.port,
        log: status.logFile === 'stderr' ? paths.hubLog(config.home) : status.logFile,
      }
      if (opts.json) process.stdout.write(bannerJson(shown))
      else {
        const { channels } = await hub.call('channels')
        const connected = { claude: claudeConnection(process.cwd()), channels: channels.map((c) => c.name) }
        process.stdout.write(
          `${already ? 'the hub was running already\n' : ''}${banner(shown, false, connected)}`,
        )
      }
    })
}
