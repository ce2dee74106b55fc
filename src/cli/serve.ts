import type { Command } from 'commander'
import { createLogger } from '../core/log.js'
import { startHub } from '../hub/server.js'
import { openStore } from '../store/open.js'
import { configFrom } from './options.js'

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the hub: durable store, webhooks, senders, the hub socket for channels')
    .option('--host <address>', 'address to bind (default 127.0.0.1)')
    .action(async (opts: { host?: string }, command: Command) => {
      const config = configFrom(command, opts.host ? { host: opts.host } : {})
      const log = createLogger('hub')
      // The hub delivers from its event loop: WAL checkpoints go to a worker thread.
      const store = openStore(config, {
        checkpoints: 'worker',
        onCheckpointError: (message) => log.warn({ message }, 'WAL checkpoint failed'),
      })
      let running: Awaited<ReturnType<typeof startHub>>
      try {
        running = await startHub(config, store, log)
      } catch (err) {
        await store.close()
        if (
          (err as NodeJS.ErrnoException).code === 'EADDRINUSE' &&
          (await hubAnswers(config.host, config.port))
        ) {
          log.info({ port: config.port }, 'a hub is running on this port already; leaving it be')
          return
        }
        throw err
      }
      const stop = async (signal: string) => {
        log.info({ signal }, 'hub stopping')
        await running.close()
        process.exit(0)
      }
      process.once('SIGINT', () => void stop('SIGINT'))
      process.once('SIGTERM', () => void stop('SIGTERM'))
    })
}

async function hubAnswers(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(2_000) })
    return res.ok
  } catch {
    return false
  }
}
