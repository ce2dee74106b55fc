// The leases one hub holds: its own (so the others know it lives, and where), the work only one hub
// may do at a time (a chat bridge's bot, retention), and the subscribers it delivers to. Every tick
// renews what it holds, takes what lapsed, and stops what it lost. On SQLite there is one hub: it
// gets everything, and the same code runs.
//
// Fencing: a hub cut off from the database cannot learn that it lost a lease, so it must not wait to
// be told. Each renewal that reaches the store proves what it holds until that renewal's time plus a
// lease; a timer of its own, apart from the ticks (which may hang on a store that does not answer),
// stops all its work and ends its subscribers' connections a tick before that, which is before any
// other hub may take them. Once renewals reach the store again it takes back only what no other hub
// took meanwhile: it rejoins as one hub among the others. The fence answers to renewals alone, and
// a tick's other statements may wait behind the hub's own deliveries (a pool whose connections are
// all taken), holding up the next tick's renewal: so renewals also run on a timer of their own
// whenever no tick's renewal came lately (the soak on three hubs found hubs whose database answered
// fencing themselves, again and again).
//
// Handing over: work that holds its lease but cannot do its job from here (a chat bridge whose hub
// cannot reach the platform) gives the lease up, and this hub stands aside from it for a lease, so
// that another hub's tick takes it first; afterwards it takes it only if no other hub did.

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

/**
 * Why a connection's lease is no longer this hub's: another hub holds it now (the subscriber
 * connected there), or this hub fenced itself (no renewal reached the store in time).
 */
export type LeaseLoss = 'taken' | 'fenced'

/** A lease seized for a connection here, under `epoch`; `lost` ends the connection. */
interface Seized {
  epoch: number
  lost: (why: LeaseLoss) => void
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
  /** Leases handed over (see handOver), by name: not taken again here before this time. */
  private readonly standingAside = new Map<string, number>()
  /**
   * Work stopping apart from the ticks (handed over, or fenced), by lease name: a tick does not start
   * it again, nor does stop() end, before it has stopped. A bridge's stop may wait on a hanging link.
   */
  private readonly stopping = new Map<string, Promise<void>>()
  private timer: NodeJS.Timeout | null = null
  /** Stops everything here when no renewal has reached the store for almost a lease (see the top). */
  private fenceTimer: NodeJS.Timeout | null = null
  /** Renews apart from the ticks, so that slow ticks do not let the fence fall (see prove). */
  private proveTimer: NodeJS.Timeout | null = null
  /** When the renewal under way apart from the ticks was made, or null. */
  private provingSince: number | null = null
  /** The time of the latest renewal that reached the store: the fence counts from it. */
  private provenAt = 0
  /** The tick under way; one given up on (see tickOnce) finds it changed and stops acting. */
  private generation = 0
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
    /**
     * Whether other hubs share the store (Postgres), so a lease this hub cannot renew may be taken:
     * only then does it fence itself. On SQLite nothing can take its leases, and stopping everything
     * after a long pause would only interrupt.
     */
    private readonly shared = false,
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
   * `lost` is called once another hub takes it (the subscriber connected there since), or once this
   * hub fences itself.
   */
  async seize(subscriber: string, lost: (why: LeaseLoss) => void): Promise<Lease> {
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

  /**
   * The work under `name` cannot do its job from this hub (a bridge whose platform is out of reach):
   * it stops, the lease is given up once it has (so no other hub starts it while it still runs
   * here), and this hub does not take it again for a lease: long enough for every other live hub to
   * tick about four times and take it, after which this hub takes it only if none did (it may be the
   * only hub, or the others may fare no better). False when the work did not run here.
   */
  async handOver(name: string): Promise<boolean> {
    const running = this.running.get(name)
    if (!running) return false
    // Out of the ticks' hands at once, but stopped beside them rather than in their queue: a bridge
    // may take seconds to stop, and renewals held up that long would let this hub's leases lapse.
    this.running.delete(name)
    await this.stopApart(
      name,
      (async () => {
        await this.stopWork(name, running.work)
        // Said before the release: a hub that takes the lease next says so after this line (the
        // order the partition test reads the hubs' logs in).
        this.log.warn(
          { lease: name },
          'handed over: its work stopped here, another hub on the database may take it',
        )
        this.standingAside.set(name, Date.now() + this.leaseMs)
        // Held, and renewed with the rest, until the work has stopped: no other hub starts it before.
        await this.store
          .releaseLease(name, this.hubId)
          .catch((err) => this.log.warn({ err, lease: name }, 'lease not released; it lapses instead'))
      })(),
    )
    return true
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
    seized.lost('taken')
  }

  /** The first tick runs before this resolves: what this hub holds is running when the hub answers. */
  async start(): Promise<void> {
    // First of all, where this hub answers now: a hub restarted on another port keeps its id.
    await this.store.acquireLease(hubLease(this.hubId), this.hubId, this.leaseMs, Date.now(), this.address())
    await this.tickNow()
    // Renewed four times per lease: a hub must miss several ticks before its leases lapse.
    this.timer = setInterval(() => void this.tickNow(), Math.floor(this.leaseMs / 4))
    this.timer.unref()
    if (this.shared) {
      this.proveTimer = setInterval(() => void this.prove(), Math.floor(this.leaseMs / 4))
      this.proveTimer.unref()
    }
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
    if (this.proveTimer) clearInterval(this.proveTimer)
    if (this.fenceTimer) clearTimeout(this.fenceTimer)
    await this.ticking
    await Promise.all(this.stopping.values())
    for (const [name, { work }] of this.running) {
      await this.stopWork(name, work)
      await this.store.releaseLease(name, this.hubId).catch(() => {})
    }
    this.running.clear()
    await this.store.releaseLease(hubLease(this.hubId), this.hubId).catch(() => {})
  }

  /**
   * A renewal made at `now` reached the store: what this hub holds is its own until `now` plus a
   * lease. The fence falls a tick before that, so a hub whose timers run a little late still stops
   * before another hub's tick may take its leases.
   */
  private renewedAt(now: number): void {
    // An older renewal answered after a newer one proves less: the fence stays where it is.
    if (!this.shared || now <= this.provenAt) return
    this.provenAt = now
    if (this.fenceTimer) clearTimeout(this.fenceTimer)
    const fenceAt = now + this.leaseMs - Math.floor(this.leaseMs / 4)
    this.fenceTimer = setTimeout(() => this.fence(), Math.max(0, fenceAt - Date.now()))
    this.fenceTimer.unref()
  }

  /**
   * Renews what this hub holds when no renewal reached the store for a tick (the ticks' own are
   * held up: the statements after a tick's renewal wait in the hub's queue, and the next tick waits
   * for them), and moves the fence. It only proves: acting on what was lost stays with the ticks. A
   * renewal the store does not answer is given up after a lease, as a tick is.
   */
  private async prove(): Promise<void> {
    const now = Date.now()
    if (this.stopped || now - this.provenAt < this.leaseMs / 4) return
    if (this.provingSince !== null && now - this.provingSince < this.leaseMs) return
    this.provingSince = now
    try {
      await this.store.renewLeases(this.hubId, this.leaseMs, now)
      this.renewedAt(now)
    } catch (err) {
      this.log.warn({ err }, 'leases not renewed this time; trying again')
    } finally {
      if (this.provingSince === now) this.provingSince = null
    }
  }

  /** No renewal reached the store in time: nothing here may act on a lease another hub may now hold. */
  private fence(): void {
    this.fenceTimer = null
    if (this.stopped || (this.running.size === 0 && this.seized.size === 0)) return
    this.log.warn(
      { leases: [...this.running.keys(), ...this.seized.keys()] },
      'no lease renewal reached the store in time: this hub stops its work and connections before another hub may take them',
    )
    // Stopped in this very turn of the event loop, before any other timer may run.
    const running = [...this.running]
    this.running.clear()
    const seized = [...this.seized.values()]
    this.seized.clear()
    for (const entry of seized) entry.lost('fenced')
    for (const [name, { work }] of running) void this.stopApart(name, this.stopWork(name, work))
  }

  private stopApart(name: string, stopping: Promise<void>): Promise<void> {
    const tracked = stopping.finally(() => {
      if (this.stopping.get(name) === tracked) this.stopping.delete(name)
    })
    this.stopping.set(name, tracked)
    return tracked
  }

  private stopWork(name: string, work: ExclusiveWork): Promise<void> {
    return work.stop().catch((err) => this.log.error({ err, lease: name }, 'work did not stop cleanly'))
  }

  /**
   * One tick, given a lease to finish: a store that does not answer (a split network) must not hold
   * back every tick after it, nor the hub's stop. A tick given up on acts on nothing it learns later.
   */
  private async tickOnce(): Promise<void> {
    if (this.stopped) return
    const generation = ++this.generation
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.leaseMs)
      timer.unref()
    })
    try {
      if ((await Promise.race([this.tick(generation), late])) === 'late') {
        this.generation++
        this.log.warn('the store did not answer within a lease; the next tick starts without this one')
      }
    } catch (err) {
      this.log.error({ err }, 'leases not renewed this time; trying again')
    } finally {
      clearTimeout(timer)
    }
  }

  private async tick(generation: number): Promise<'done'> {
    const current = () => generation === this.generation && !this.stopped
    const now = Date.now()
    // Judged against the renewal only: a subscriber that connects meanwhile seizes a lease of its own.
    const seized = [...this.seized]
    const held = new Set(await this.store.renewLeases(this.hubId, this.leaseMs, now))
    if (!current()) return 'done'
    this.renewedAt(now)
    // Renewed with the rest; taken again, with the address, at start (see start) or once lapsed.
    if (!held.has(hubLease(this.hubId)))
      await this.store.acquireLease(hubLease(this.hubId), this.hubId, this.leaseMs, now, this.address())
    if (!current()) return 'done'
    for (const [name, entry] of seized)
      if (!held.has(name) && this.seized.get(name) === entry) {
        this.seized.delete(name)
        entry.lost('taken')
      }
    const wanted = new Map(this.fixed)
    for (const source of this.sources)
      for (const [name, work] of await source.wanted()) wanted.set(name, work)
    if (!current()) return 'done'
    for (const [name, { work }] of this.running)
      if (!held.has(name) || !wanted.has(name)) {
        this.running.delete(name)
        const lost = !held.has(name)
        if (lost) this.log.warn({ lease: name }, 'lease lost; its work stops here')
        await this.stopWork(name, work)
        // Released once stopped: a hub that still lists it as wanted may take it at once.
        if (!lost) await this.store.releaseLease(name, this.hubId)
      }
    for (const [name, work] of wanted) {
      if (!current()) return 'done'
      if (this.running.has(name) || this.stopping.has(name)) continue
      if ((this.standingAside.get(name) ?? 0) > now) continue
      this.standingAside.delete(name)
      const lease = await this.store.acquireLease(name, this.hubId, this.leaseMs, now)
      if (!lease || !current()) continue
      this.running.set(name, { work, epoch: lease.epoch })
      // Said before the work starts: with the fence's line, the order in which hubs held a lease.
      this.log.info({ lease: name, epoch: lease.epoch }, 'lease taken; its work starts here')
      try {
        await work.start(lease)
      } catch (err) {
        this.log.error({ err, lease: name }, 'work did not start; another tick tries again')
        this.running.delete(name)
        await this.store.releaseLease(name, this.hubId)
      }
    }
    return 'done'
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
