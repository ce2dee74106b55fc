// The leases one hub holds: its own (so the others know it lives, and where), the work only one hub
// may do at a time (a chat bridge's bot, retention), and the subscribers it delivers to. Every tick
// renews what it holds, takes what lapsed, and stops what it lost. On SQLite there is one hub: it
// gets everything, and the same code runs.

import type { ClusterHub } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import type { Lease, Store } from '../../store/store.js'

/** Work one hub at a time does: started once this hub holds its lease, stopped if it loses it. */
export interface ExclusiveWork {
  start(lease: Lease): Promise<void>
  stop(): Promise<void>
}

/** Names of work found in the store each tick (an outbound webhook, a driven session). */
export interface WorkSource {
  /** What should run now, by lease name. */
  wanted(): Promise<Map<string, ExclusiveWork>>
}

/** A lease seized for a connection here, under `epoch`; `lost` ends the connection. */
interface Seized {
  epoch: number
  lost: () => void
}

export const hubLease = (hubId: string) => `hub:${hubId}`
export const subscriberLease = (name: string) => `subscriber:${name}`

export class LeaseKeeper {
  private readonly fixed = new Map<string, ExclusiveWork>()
  private readonly sources: WorkSource[] = []
  /** Work running here, by lease name, with the epoch it runs under. */
  private readonly running = new Map<string, { work: ExclusiveWork; epoch: number }>()
  /** Leases seized for connections (subscribers connected here), by name: the epoch, what to do on loss. */
  private readonly seized = new Map<string, Seized>()
  private timer: NodeJS.Timeout | null = null
  private ticking: Promise<void> = Promise.resolve()
  private stopped = false

  constructor(
    private readonly store: Store,
    readonly hubId: string,
    private readonly log: Logger,
    /** This hub's address for the others (its HTTP API), once it listens. */
    private readonly address: () => string | null,
    /** How long a lease lasts unrenewed: a dead hub's work moves within this (HubConfig.leaseMs). */
    private readonly leaseMs: number,
  ) {}

  /** Runs `work` on one hub at a time: on this one while it holds `name`. */
  exclusive(name: string, work: ExclusiveWork): void {
    this.fixed.set(name, work)
  }

  source(source: WorkSource): void {
    this.sources.push(source)
  }

  /**
   * A subscriber connected here: its lease is taken whoever held it, with the next epoch, and
   * `lost` is called once another hub takes it (the subscriber connected there since).
   */
  async seize(subscriber: string, lost: () => void): Promise<Lease> {
    const name = subscriberLease(subscriber)
    const lease = await this.store.seizeLease(name, this.hubId, this.leaseMs, Date.now())
    this.seized.set(name, { epoch: lease.epoch, lost })
    return lease
  }

  /** Whether a subscriber is connected to another hub now (its lease is live there). */
  async connectedElsewhere(subscriber: string): Promise<boolean> {
    const lease = await this.store.getLease(subscriberLease(subscriber))
    return lease !== null && lease.holder !== this.hubId && lease.expiresAt > Date.now()
  }

  /**
   * Takes `name` now, if no other hub holds it: true when this hub holds it. Work running here under
   * an older epoch of it (the lease lapsed meanwhile) starts again under the new one.
   */
  take(name: string): Promise<boolean> {
    const taking = this.ticking.then(async () => {
      const lease = await this.store.acquireLease(name, this.hubId, this.leaseMs, Date.now())
      const running = this.running.get(name)
      if (lease && running && running.epoch !== lease.epoch) {
        await running.work.stop()
        await running.work.start(lease)
        running.epoch = lease.epoch
      }
      return lease !== null
    })
    this.ticking = taking.then(
      () => {},
      () => {},
    )
    return taking
  }

  /** The subscriber's connection here ended: its lease is free for whichever hub it connects to next. */
  unseize(subscriber: string): void {
    const name = subscriberLease(subscriber)
    this.seized.delete(name)
    this.store
      .releaseLease(name, this.hubId)
      .catch((err) => this.log.warn({ err, lease: name }, 'lease not released; it lapses instead'))
  }

  /**
   * A notice says another hub took `name`. Anyone may send one: what ran here under it stops only
   * once the lease itself shows another holder or a later epoch.
   */
  async takenElsewhere(name: string): Promise<void> {
    const seized = this.seized.get(name)
    if (!seized) return
    const lease = await this.store.getLease(name)
    if (lease && lease.holder === this.hubId && lease.epoch === seized.epoch) return
    if (this.seized.get(name) !== seized) return // seized again meanwhile, under a new epoch
    this.seized.delete(name)
    seized.lost()
  }

  /** The first tick runs before this resolves: what this hub holds is running when the hub answers. */
  async start(): Promise<void> {
    // First of all, where this hub answers now: a hub restarted on another port keeps its id.
    await this.store.acquireLease(hubLease(this.hubId), this.hubId, this.leaseMs, Date.now(), this.address())
    await this.tickNow()
    // Renewed four times per lease: a hub must miss several ticks before its leases lapse.
    this.timer = setInterval(() => void this.tickNow(), Math.floor(this.leaseMs / 4))
    this.timer.unref()
  }

  /** Runs a tick now (after any under way): work just stored starts without waiting for the next. */
  tickNow(): Promise<void> {
    this.ticking = this.ticking.then(() => this.tickOnce())
    return this.ticking
  }

  /** Stops all work here and frees its leases for the other hubs at once. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.ticking
    for (const [name, { work }] of this.running) {
      await work.stop().catch((err) => this.log.error({ err, lease: name }, 'work did not stop cleanly'))
      await this.store.releaseLease(name, this.hubId).catch(() => {})
    }
    this.running.clear()
    await this.store.releaseLease(hubLease(this.hubId), this.hubId).catch(() => {})
  }

  private async tickOnce(): Promise<void> {
    if (this.stopped) return
    try {
      await this.tick()
    } catch (err) {
      this.log.error({ err }, 'leases not renewed this time; trying again')
    }
  }

  private async tick(): Promise<void> {
    const now = Date.now()
    // Judged against the renewal only: a subscriber that connects meanwhile seizes a lease of its own.
    const seized = [...this.seized]
    const held = new Set(await this.store.renewLeases(this.hubId, this.leaseMs, now))
    // Renewed with the rest; taken again, with the address, at start (see start) or once lapsed.
    if (!held.has(hubLease(this.hubId)))
      await this.store.acquireLease(hubLease(this.hubId), this.hubId, this.leaseMs, now, this.address())
    for (const [name, entry] of seized)
      if (!held.has(name) && this.seized.get(name) === entry) {
        this.seized.delete(name)
        entry.lost()
      }
    const wanted = new Map(this.fixed)
    for (const source of this.sources)
      for (const [name, work] of await source.wanted()) wanted.set(name, work)
    for (const [name, { work }] of this.running)
      if (!held.has(name) || !wanted.has(name)) {
        this.running.delete(name)
        if (!held.has(name)) this.log.warn({ lease: name }, 'lease lost; its work stops here')
        else await this.store.releaseLease(name, this.hubId)
        await work.stop().catch((err) => this.log.error({ err, lease: name }, 'work did not stop cleanly'))
      }
    for (const [name, work] of wanted) {
      if (this.running.has(name)) continue
      const lease = await this.store.acquireLease(name, this.hubId, this.leaseMs, now)
      if (!lease) continue
      this.running.set(name, { work, epoch: lease.epoch })
      try {
        await work.start(lease)
      } catch (err) {
        this.log.error({ err, lease: name }, 'work did not start; another tick tries again')
        this.running.delete(name)
        await this.store.releaseLease(name, this.hubId)
      }
    }
  }
}

/** The hubs alive on this database now, with what each holds (for `switchboard status`). */
export async function clusterHubs(store: Store, self: string): Promise<ClusterHub[]> {
  const now = Date.now()
  const live = (await store.listLeases('')).filter((l) => l.expiresAt > now)
  return live
    .filter((l) => l.name === hubLease(l.holder))
    .map((hub) => {
      const held = live.filter((l) => l.holder === hub.holder && l.name !== hub.name)
      const [address = null, pin] = hub.note?.split('#') ?? []
      return {
        id: hub.holder,
        address,
        fingerprint: pin?.replace(/^sha256:/, '') ?? null,
        self: hub.holder === self,
        holds: held.filter((l) => !l.name.startsWith('subscriber:')).map((l) => l.name),
        subscribers: held.filter((l) => l.name.startsWith('subscriber:')).length,
      }
    })
}
