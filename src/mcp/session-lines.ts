// Each session's stored lines as this server has read them, so a status call fetches from the hub
// only the lines added since the one before.
import type { HubApi } from '../client/api-client.js'
import type { StoredLine } from './transcript.js'

export class SessionLines {
  private readonly seen = new Map<string, StoredLine[]>()

  constructor(private readonly hub: HubApi) {}

  /** `id`: the hub's own id of the session (SessionView.id). */
  async of(id: string): Promise<StoredLine[]> {
    let known = this.seen.get(id)
    if (!known) {
      known = []
      this.seen.set(id, known)
    }
    for (const line of await this.hub.lines(id, known.at(-1)?.seq ?? 0)) known.push(line)
    return known
  }
}
