// An idle CLI holds memory and a process for nothing: once a turn ends, a clock starts, and a CLI
// still idle when it runs out is stopped. The session stays; the next message resumes it.

/** Runs `fire` after `ms` unless the returned function is called first. */
export type Schedule = (ms: number, fire: () => void) => () => void

/** Node's timers, not keeping the hub alive on their own. */
export const timers: Schedule = (ms, fire) => {
  const timer = setTimeout(fire, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

export class IdlePolicy {
  /** The clocks running, by the CLI they watch (a session resumed gets a new CLI, and a new clock). */
  private readonly clocks = new Map<object, () => void>()

  constructor(
    /** How long a CLI may sit idle; 0: for ever. */
    private readonly minutes: number,
    private readonly schedule: Schedule = timers,
  ) {}

  /** The CLI is idle from now on: `stop` is called with the reason if it still is in `minutes`. */
  idle(cli: object, stop: (reason: string) => void): void {
    this.busy(cli)
    if (this.minutes <= 0) return
    const cancel = this.schedule(this.minutes * 60_000, () => {
      this.clocks.delete(cli)
      stop(`stopped after ${this.minutes} minutes idle; the next message resumes it`)
    })
    this.clocks.set(cli, cancel)
  }

  /** The CLI has work (a message), or ended: its clock stops. */
  busy(cli: object): void {
    this.clocks.get(cli)?.()
    this.clocks.delete(cli)
  }
}
