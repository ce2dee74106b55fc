// The one way out to a chat platform, redacted: every message, edit and thread title a bridge sends
// (replies, prompts, notices, progress) passes its text through the Redactor first, so a token in a
// tool's input or in Claude's reply never reaches the platform. The markdown is redacted before it is
// formatted (the markup then escapes the replacement like any text); what is sent is redacted again,
// for text that never went through format.
import { existsSync, readFileSync } from 'node:fs'
import { readBridges } from '../../core/bridges.js'
import { paths } from '../../core/config.js'
import { Redactor } from '../../core/redact.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'
import type { Store } from '../../store/store.js'

/** How long the hub's secrets are kept before they are read again (a source's secret may change). */
const SECRETS_FOR_MS = 5_000

export function redacting(adapter: PlatformAdapter, redactor: Redactor): PlatformAdapter {
  const r = (text: string) => redactor.redact(text)
  const { threads, history } = adapter
  // Every member said, each calling the adapter itself: an adapter may be a class that keeps state on `this`.
  return {
    platform: adapter.platform,
    textLimit: adapter.textLimit,
    start: (handlers) => adapter.start(handlers),
    stop: () => adapter.stop(),
    format: (markdown, limit, mode) => adapter.format(r(markdown), limit, mode),
    send: (chatId, message) =>
      adapter.send(chatId, {
        ...message,
        text: r(message.text),
        ...(message.markup !== undefined ? { markup: r(message.markup) } : {}),
        ...(message.buttons
          ? { buttons: message.buttons.map((row) => row.map((b) => ({ ...b, text: r(b.text) }))) }
          : {}),
      }),
    edit: (chatId, messageId, text, buttons, markup) =>
      adapter.edit(
        chatId,
        messageId,
        r(text),
        buttons?.map((row) => row.map((b) => ({ ...b, text: r(b.text) }))),
        markup === undefined ? undefined : r(markup),
      ),
    react: (chatId, messageId, emoji) => adapter.react(chatId, messageId, emoji),
    typing: (chatId, thread) => adapter.typing(chatId, thread),
    answerPress: (press, notice) => adapter.answerPress(press, notice === undefined ? undefined : r(notice)),
    dmChat: (userId) => adapter.dmChat(userId),
    download: (attachment, toFolder) => adapter.download(attachment, toFolder),
    ...(threads
      ? {
          threads: {
            open: (chatId, title) => threads.open(chatId, r(title)),
            close: (chatId, thread) => threads.close(chatId, thread),
            reopen: (chatId, thread) => threads.reopen(chatId, thread),
            chatOf: (chatId, thread) => threads.chatOf(chatId, thread),
          },
        }
      : {}),
    ...(history ? { history: (chatId: string, limit: number) => history.call(adapter, chatId, limit) } : {}),
  }
}

/**
 * The hub's own secrets, as they are now: the admin and hook tokens in its home, `extra` (an admin
 * token set by a setting), every bridge's bot tokens, the webhook sources' and outbound webhooks' secrets.
 */
export class HubSecrets {
  readonly redactor = new Redactor()
  private readAt = 0
  private reading: Promise<void> | null = null

  constructor(
    private readonly home: string,
    private readonly store: Store,
    private readonly extra: string[] = [],
  ) {}

  /** Reads them again when they are older than a few seconds; the redactor has the last ones meanwhile. */
  refresh(now = Date.now()): Promise<void> {
    if (now - this.readAt < SECRETS_FOR_MS) return this.reading ?? Promise.resolve()
    this.readAt = now
    this.reading = this.read().catch(() => {})
    return this.reading
  }

  private async read(): Promise<void> {
    const secrets = [...this.extra]
    for (const file of [paths.adminToken(this.home), paths.hookToken(this.home)])
      if (existsSync(file)) secrets.push(readFileSync(file, 'utf8').trim())
    try {
      for (const config of Object.values(readBridges(this.home)))
        if (config) secrets.push(config.token, ...(config.appToken ? [config.appToken] : []))
    } catch {
      // An unreadable bridges.json: the bridges keep the tokens they run with, read before.
    }
    for (const source of await this.store.listSources()) secrets.push(source.secret)
    for (const hook of await this.store.listOutboundWebhooks()) secrets.push(hook.secret)
    this.redactor.setSecrets(secrets)
  }
}
