// What the soak sent and what each MCP client saw, counted as it happens: for every event the hub
// accepted, the channels it was addressed to; for every notification, whether that channel had it
// already (twice), whether an event of the same publisher sent after it came first (out of order),
// and how long it took from the POST to the client. Publishers send one after another, each waiting
// for its 202 before the next, so "in order" is defined per publisher (as the hub promises it).

export type Kind = 'webhook' | 'chat'

interface Sent {
  kind: Kind
  publisher: number
  index: number
  postedAt: number
  /** Channel index → how many times it was shown there (0: not yet). */
  shown: Map<number, number>
}

export interface KindFigures {
  sent: number
  accepted: number
  /** Deliveries owed: each accepted event times the channels it is addressed to. */
  owed: number
  seen: number
  lost: number
  shownTwice: number
  outOfOrder: number
}

export interface DecisionFigures {
  raised: number
  answered: number
  answeredTwice: number
  unanswered: number
  /** Operators' answers the hub took (200) and refused as already answered (409), and any other status. */
  answers200: number
  answers409: number
  answersOther: number
}

export class Ledger {
  private readonly events = new Map<string, Sent>()
  /** Notifications read before their POST's 202 was: matched when it is. */
  private readonly early = new Map<string, { channel: number; at: number }[]>()
  /** Per channel and publisher, the highest index shown so far. */
  private readonly highest = new Map<string, number>()
  private readonly figures: Record<Kind, KindFigures> = { webhook: blank(), chat: blank() }
  /** Notifications of no event this soak was answered for, or at a channel it was not addressed to. */
  strays = 0
  /** [postedAt, ms to the client] of each first showing, in the order read. */
  readonly latency: [number, number][] = []
  private readonly raised = new Map<string, number>()
  private readonly verdicts = new Map<string, number>()
  private readonly answers = { 200: 0, 409: 0, other: 0 }
  /** When the last notification or verdict arrived: the drain waits for quiet. */
  lastNews = 0

  posted(kind: Kind): void {
    this.figures[kind].sent++
  }

  accepted(kind: Kind, id: string, publisher: number, index: number, postedAt: number, to: number[]): void {
    // A retry answered as a duplicate is the event already counted.
    if (this.events.has(id)) return
    const f = this.figures[kind]
    f.accepted++
    f.owed += to.length
    const sent: Sent = { kind, publisher, index, postedAt, shown: new Map(to.map((c) => [c, 0])) }
    this.events.set(id, sent)
    for (const { channel, at } of this.early.get(id) ?? []) this.show(id, sent, channel, at)
    this.early.delete(id)
  }

  onEvent(channel: number, id: string, at: number): void {
    this.lastNews = at
    const sent = this.events.get(id)
    if (sent) this.show(id, sent, channel, at)
    else this.early.set(id, [...(this.early.get(id) ?? []), { channel, at }])
  }

  private show(_id: string, sent: Sent, channel: number, at: number): void {
    const times = sent.shown.get(channel)
    if (times === undefined) {
      this.strays++
      return
    }
    sent.shown.set(channel, times + 1)
    const f = this.figures[sent.kind]
    if (times > 0) {
      f.shownTwice++
      return
    }
    f.seen++
    const key = `${channel}:${sent.kind}:${sent.publisher}`
    const top = this.highest.get(key) ?? -1
    if (sent.index < top) f.outOfOrder++
    else this.highest.set(key, sent.index)
    this.latency.push([sent.postedAt, at - sent.postedAt])
  }

  raise(channel: number, requestId: string): void {
    this.raised.set(`${channel}:${requestId}`, 0)
  }

  onVerdict(channel: number, requestId: string, at: number): void {
    this.lastNews = at
    const key = `${channel}:${requestId}`
    this.verdicts.set(key, (this.verdicts.get(key) ?? 0) + 1)
  }

  answered(status: number): void {
    if (status === 200) this.answers[200]++
    else if (status === 409) this.answers[409]++
    else this.answers.other++
  }

  /** Every delivery owed was seen and every prompt raised has its verdict. */
  get complete(): boolean {
    const all = (k: Kind) => this.figures[k].seen >= this.figures[k].owed
    return all('webhook') && all('chat') && [...this.raised.keys()].every((k) => this.verdicts.has(k))
  }

  kinds(): Record<Kind, KindFigures> {
    const out = {} as Record<Kind, KindFigures>
    for (const k of ['webhook', 'chat'] as const) {
      const f = this.figures[k]
      out[k] = { ...f, lost: f.owed - f.seen }
    }
    return out
  }

  decisions(): DecisionFigures {
    let answered = 0
    let answeredTwice = 0
    for (const key of this.raised.keys()) {
      const n = this.verdicts.get(key) ?? 0
      if (n >= 1) answered++
      if (n > 1) answeredTwice++
    }
    // A verdict on a prompt never raised would be a stray too.
    for (const key of this.verdicts.keys()) if (!this.raised.has(key)) this.strays++
    return {
      raised: this.raised.size,
      answered,
      answeredTwice,
      unanswered: this.raised.size - answered,
      answers200: this.answers[200],
      answers409: this.answers[409],
      answersOther: this.answers.other,
    }
  }

  /** Prompts raised with no verdict yet, as `<channel>:<request_id>`: the first few, to look them up. */
  unansweredPrompts(n = 5): string[] {
    return [...this.raised.keys()].filter((k) => !this.verdicts.has(k)).slice(0, n)
  }

  /** Notifications whose event was never answered 202 by the end. */
  get unmatched(): number {
    return [...this.early.values()].reduce((sum, list) => sum + list.length, 0)
  }
}

const blank = (): KindFigures => ({
  sent: 0,
  accepted: 0,
  owed: 0,
  seen: 0,
  lost: 0,
  shownTwice: 0,
  outOfOrder: 0,
})
