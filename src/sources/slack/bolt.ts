// @slack/bolt set up the way the Slack bridge needs it: no request until start(), no retries of its
// own, its logs into ours at debug (never stdout), Socket Mode without the library's reconnect, and
// the listeners that hand message events and button presses to the adapter.
import { App, type Logger as BoltLogger, LogLevel, SocketModeReceiver, type webApi } from '@slack/bolt'
import type { Logger } from '../../core/log.js'
import type { SlackBlockActions, SlackMessageEvent } from './inbound.js'

/** A fresh object per client: the libraries write into the options they are given. */
export function clientOptions(apiUrl: string, logger: BoltLogger): webApi.WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    // The default policy retries for about 30 minutes; the hub decides about retries itself.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    // A call Slack never answers would otherwise wait forever (and with it the events behind a name).
    timeout: 30_000,
    logger,
  }
}

export interface BoltSetup {
  token: string
  appToken: string
  /** From the adapter's own auth.test: given, bolt runs none (whose failure nobody would hear). */
  botId: string
  botUserId: string
  apiUrl: string
  logger: BoltLogger
  log: Logger
  onMessage(event: SlackMessageEvent, viaMention: boolean): Promise<void>
  onPress(body: SlackBlockActions): void
}

/** The App and its Socket Mode client; the App makes no request until `app.start()`. */
export function createBoltApp(setup: BoltSetup): { app: App; socket: SocketModeReceiver['client'] } {
  const { log } = setup
  const receiver = new SocketModeReceiver({
    appToken: setup.appToken,
    logger: setup.logger,
    // Its reconnect rejects unhandled on an HTTP error and stops trying: connection.ts reconnects.
    autoReconnectEnabled: false,
    installerOptions: { clientOptions: clientOptions(setup.apiUrl, setup.logger) },
    processEventErrorHandler: async ({ error }) => {
      log.warn({ err: error }, 'a Slack event could not be handled')
      return false
    },
  })
  const app = new App({
    token: setup.token,
    botId: setup.botId,
    botUserId: setup.botUserId,
    tokenVerificationEnabled: false,
    socketMode: true,
    receiver,
    logger: setup.logger,
    clientOptions: clientOptions(setup.apiUrl, setup.logger),
    convoStore: false,
  })
  app.error(async (error) => {
    log.warn({ err: error }, 'a Slack listener failed')
  })
  app.event('message', async ({ event }) => setup.onMessage(event as unknown as SlackMessageEvent, false))
  app.event('app_mention', async ({ event }) => setup.onMessage(event as unknown as SlackMessageEvent, true))
  app.action({ type: 'block_actions' }, async ({ ack, body }) => {
    // Slack wants the ack within 3 seconds, whatever the hub makes of the press.
    await ack().catch((error: unknown) => log.debug({ err: error }, 'Slack ack failed'))
    setup.onPress(body as unknown as SlackBlockActions)
  })
  return { app, socket: receiver.client }
}

/** Bolt and its clients log through this into ours, at debug: their lines are for debugging the bridge. */
export function boltLogger(log: Logger): BoltLogger {
  const write = (...parts: unknown[]): void => {
    if (!log.isLevelEnabled('debug')) return
    const text = parts
      .map((part) =>
        part instanceof Error ? part.message : typeof part === 'string' ? part : safeJson(part),
      )
      .join(' ')
    log.debug({ library: 'slack' }, text)
  }
  return {
    debug: write,
    info: write,
    warn: write,
    error: write,
    setLevel: () => {},
    // Some of the library's debug lines cost a JSON.stringify; they are only built when they are kept.
    getLevel: () => (log.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.INFO),
    setName: () => {},
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
