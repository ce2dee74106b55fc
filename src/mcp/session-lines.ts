// Each session's stored lines as this server has read them, folded as they come (TranscriptReader), so
// a status call fetches from the hub only the lines added since the one before, a page at a time, and
// keeps no transcript in memory.
import type { HubApi } from '../client/api-client.js'
import { linesAfter } from '../core/replay.js'
import { type Transcript, TranscriptReader } from './transcript.js'

export class SessionLines {
  private readonly seen = new Map<string, { after: number; reader: TranscriptReader }>()

  constructor(private readonly hub: HubApi) {}

  /** `id`: the hub's own id of the session (SessionView.id). */
  async of(id: string): Promise<Transcript> {
    let known = this.seen.get(id)
    if (!known) {
      known = { after: 0, reader: new TranscriptReader() }
      this.seen.set(id, known)
    }
    for await (const { seq, line } of linesAfter(
      (after) => this.hub.call('sessionLines', { params: { id }, query: { after } }),
      known.after,
    )) {
      known.reader.add(line)
      known.after = seq
    }
    return known.reader.transcript
  }
}
