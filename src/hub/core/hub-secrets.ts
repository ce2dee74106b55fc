// The hub's own secrets, gathered where they are kept (its home, bridges.json, the store, settings),
// for the Redactor: nothing the hub sends to a chat platform or posts to GitHub carries one.
import { existsSync, readFileSync } from 'node:fs'
import { readBridges } from '../../core/bridges.js'
import { paths } from '../../core/config.js'
import { Redactor } from '../../core/redact.js'
import type { Store } from '../../store/store.js'

/** How long the hub's secrets are kept before they are read again (a source's secret may change). */
const SECRETS_FOR_MS = 5_000

/**
 * The hub's own secrets, as they are now: the admin and hook tokens in its home, `extra` (an admin
 * token or a GitHub token set by a setting), every bridge's bot tokens, the webhook sources' and outbound webhooks' secrets.
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
    for (const file of [paths.adminToken(this.home), paths.formerHookToken(this.home)])
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
