// `switchboard status`: is this home's hub up, where, and what is connected to it. Never starts a hub,
// and never makes the home or anything in it.
import type { Command } from 'commander'
import { HubApiError } from '../client/api-client.js'
import { START_AGAIN, stoppedHow } from '../client/autostart.js'
import { pinText } from '../core/fingerprint.js'
import type { ClusterHub, HubStatus } from '../core/hub-protocol.js'
import { configFrom, hubApi } from './options.js'
import { printJson } from './output.js'

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('whether the hub runs, where, and who is connected (exit 1 when it is not running)')
    .option('--json', 'one JSON object, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const config = configFrom(command)
      let status: HubStatus
      try {
        status = await hubApi(command, 'status', false).call('status')
      } catch (err) {
        if (!(err instanceof HubApiError) || err.status !== 503) throw err
        const how = stoppedHow(config.home)
        if (opts.json)
          printJson({ running: false, stopped: how !== null, home: config.home, port: config.port })
        else
          process.stdout.write(
            how
              ? `hub: stopped ${how} (home ${config.home}, port ${config.port}); ${START_AGAIN}\n`
              : `hub: not running (home ${config.home}, port ${config.port}); start it: switchboard serve\n`,
          )
        process.exitCode = 1
        return
      }
      if (opts.json) printJson({ running: true, ...status })
      else process.stdout.write(describe(status))
    })
}

function describe(s: HubStatus): string {
  const connected = s.connected.length
    ? s.connected.map((c) => `${c.name}${c.pending ? ` (${c.pending} waiting)` : ''}`).join(', ')
    : 'nothing'
  return [
    `hub: running, pid ${s.pid}, version ${s.version}, since ${new Date(s.startedAt).toISOString()}`,
    `home: ${s.home}`,
    `address: ${s.fingerprint ? 'https' : 'http'}://${s.host}:${s.port}${s.socket ? `, socket ${s.socket}` : ''}`,
    ...(s.fingerprint ? [`certificate: ${pinText(s.fingerprint)}`] : []),
    ...(s.inClear ? ['tls: none: plain HTTP beyond loopback (--insecure)'] : []),
    `log: ${s.logFile}`,
    `connected: ${connected}`,
    `bridges: ${s.bridges.length ? s.bridges.map((b) => `${b.platform} ${b.state}${b.lastError ? ` (${b.lastError})` : ''}`).join(', ') : 'none'}`,
    `operators: ${s.operators}${s.operators ? '' : ' (permission prompts reach nobody: switchboard sender add <name> --operator)'}`,
    `open decisions: ${s.openDecisions}`,
    `driven sessions running: ${s.liveSessions}`,
    `database: ${s.database}${s.database === 'postgres' ? `, ${s.hubs.length} hub${s.hubs.length === 1 ? '' : 's'} alive` : ''}`,
    ...(s.database === 'postgres' ? s.hubs.map(describeHub) : []),
    '',
  ].join('\n')
}

function describeHub(h: ClusterHub): string {
  const work = [...h.holds, `${h.subscribers} subscriber${h.subscribers === 1 ? '' : 's'}`].join(', ')
  const pin = h.fingerprint ? `#${pinText(h.fingerprint)}` : ''
  return `  ${h.id} at ${h.address ?? '?'}${pin}${h.self ? ' (this hub)' : ''}: ${work}`
}
