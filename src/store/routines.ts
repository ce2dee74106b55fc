// The Store's routines area (issue 25, docs/routines.md): routines as their checked JSON, their runs,
// and each run's events. An event is taken by a routine once: the run it joins and the delivery it
// came as are changed in one transaction (takeRoutineEvent).
import type { StoredEvent } from '../core/event.js'
import type { RoutineRun, RunState } from '../core/routines.js'

export { OPEN_RUN_STATES } from '../core/routines.js'
export type { RoutineRun, RunState }

export interface RoutineRecord {
  name: string
  /** The routine as core/routines.ts's schema gave it. */
  spec: Record<string, unknown>
  paused: boolean
  createdAt: number
  updatedAt: number
}

export interface RunEvent {
  runId: string
  /** The run's nth event, from 1. */
  n: number
  event: StoredEvent
  /** Written into the run's session (an event that joined once it ran). */
  sent: boolean
}

export type RunChange = Partial<
  Pick<RoutineRun, 'sessionId' | 'decisionId' | 'reason' | 'costUsd' | 'turns' | 'startedAt' | 'endedAt'>
>

export interface RoutineStore {
  /** Null when a routine of that name exists. */
  addRoutine(input: { name: string; spec: Record<string, unknown> }): Promise<RoutineRecord | null>
  getRoutine(name: string): Promise<RoutineRecord | null>
  listRoutines(): Promise<RoutineRecord[]>
  /** False when there is no such routine. */
  pauseRoutine(name: string, paused: boolean): Promise<boolean>
  /** Forgets a routine, its runs and their events. False when there was none. */
  removeRoutine(name: string): Promise<boolean>
  /**
   * In one transaction: the event joins the run of its key in one of the states `joins` (pushing a
   * pending run's due time to `dueAt`, but never past its first event's time plus `maxWaitMs`), or
   * starts a new pending run `runId` when there is none; and the delivery it came as, if any, is
   * acknowledged. An event the routine took before changes nothing (`duplicate`): its run comes back
   * as it is.
   */
  takeRoutineEvent(input: {
    routine: string
    runId: string
    key: string
    event: StoredEvent
    trigger: RoutineRun['trigger']
    /** The states of a run the event may join (core/routines.ts, joinableStates). */
    joins: readonly RunState[]
    now: number
    dueAt: number
    maxWaitMs: number
    delivery?: { subscriber: string; seq: number }
  }): Promise<{ run: RoutineRun; duplicate: boolean; joined: boolean }>
  /**
   * A new pending run `newId` with the events of the ended run `id` (due `now`); null when `id` has
   * not ended or an open run of its key stands in the way.
   */
  replayRoutineRun(id: string, newId: string, now: number): Promise<RoutineRun | null>
  getRoutineRun(id: string): Promise<RoutineRun | null>
  /** Runs newest first: of a routine, in these states, at most `limit`. */
  routineRuns(filter: {
    routine?: string
    states?: readonly RunState[]
    limit: number
  }): Promise<RoutineRun[]>
  /** Moves a run from one of `from` to `to` with `change`; null (and no change) when it was in none of them. */
  moveRoutineRun(
    id: string,
    from: readonly RunState[],
    to: RunState,
    change?: RunChange,
  ): Promise<RoutineRun | null>
  /** Changes a run's figures (cost, turns) without moving it. */
  updateRoutineRun(id: string, change: RunChange): Promise<void>
  /** A run's events in order; `unsent`: only those not yet written into its session. */
  runEvents(runId: string, options?: { unsent?: boolean }): Promise<RunEvent[]>
  markRunEventsSent(runId: string, ns: number[]): Promise<void>
}
