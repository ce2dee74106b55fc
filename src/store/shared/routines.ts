// The routines area, on either store (store/routines.ts). Taking an event is four statements in one
// transaction; partial unique indexes keep one pending and one under-way run per (routine, key) even
// if two writers raced, and the (routine, event id) key makes a redelivered event change nothing.
import type { StoredEvent } from '../../core/event.js'
import {
  OPEN_RUN_STATES,
  type RoutineRecord,
  type RoutineRun,
  type RoutineStore,
  type RunChange,
  type RunEvent,
  type RunState,
} from '../routines.js'
import type { Row } from '../rows.js'
import type { Sql } from './sql.js'

const flag = (v: unknown): boolean => v === true || v === 1
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

const toRoutine = (r: Row): RoutineRecord => ({
  name: r.name as string,
  spec: JSON.parse(r.spec as string),
  paused: flag(r.paused),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
})

const toRun = (r: Row): RoutineRun => ({
  id: r.id as string,
  routine: r.routine as string,
  key: r.run_key as string,
  state: r.state as RunState,
  trigger: r.cause as RoutineRun['trigger'],
  sessionId: (r.session_id as string | null) ?? null,
  decisionId: (r.decision_id as string | null) ?? null,
  dueAt: Number(r.due_at),
  events: Number(r.event_count),
  costUsd: Number(r.cost_usd),
  turns: Number(r.turns),
  reason: (r.reason as string | null) ?? null,
  createdAt: Number(r.created_at),
  startedAt: num(r.started_at),
  endedAt: num(r.ended_at),
})

const toRunEvent = (r: Row): RunEvent => ({
  runId: r.run_id as string,
  n: Number(r.n),
  event: JSON.parse(r.event as string) as StoredEvent,
  sent: flag(r.sent),
})

const RUN_STATES = new Set<string>([...OPEN_RUN_STATES, 'done', 'failed', 'stopped'])

/** `state IN ('pending', …)`: the states are the code's own words, never input, and checked so. */
const inStates = (states: readonly RunState[]) => {
  for (const s of states) if (!RUN_STATES.has(s)) throw new Error(`no run state "${s}"`)
  return `state IN (${states.map((s) => `'${s}'`).join(', ')})`
}
const OPEN = inStates(OPEN_RUN_STATES)

/** The columns a RunChange sets, in order, from $first on. */
const CHANGE_COLUMNS: Record<keyof RunChange, string> = {
  sessionId: 'session_id',
  decisionId: 'decision_id',
  reason: 'reason',
  costUsd: 'cost_usd',
  turns: 'turns',
  startedAt: 'started_at',
  endedAt: 'ended_at',
}

function setClause(change: RunChange, first: number): { text: string; params: unknown[] } {
  const entries = Object.entries(change).filter(([, v]) => v !== undefined) as [keyof RunChange, unknown][]
  return {
    text: entries.map(([k], i) => `, ${CHANGE_COLUMNS[k]} = $${first + i}`).join(''),
    params: entries.map(([, v]) => v),
  }
}

const ENDED = inStates(['done', 'failed', 'stopped'])

/** Retention (shared/retention.ts): runs that ended before $1, their events first, then the runs left empty. */
export const PRUNE_ROUTINE_RUNS = [
  `DELETE FROM routine_run_events WHERE run_id IN
     (SELECT id FROM routine_runs WHERE ${ENDED} AND ended_at < $1 ORDER BY ended_at LIMIT $2)`,
  `DELETE FROM routine_runs WHERE id IN
     (SELECT r.id FROM routine_runs r WHERE r.${ENDED} AND r.ended_at < $1
        AND NOT EXISTS (SELECT 1 FROM routine_run_events e WHERE e.run_id = r.id)
      ORDER BY r.ended_at LIMIT $2)`,
]

export function routineStore(sql: Sql): RoutineStore {
  const runOfEvent = async (routine: string, eventId: string) => {
    const row = await sql.get(
      `SELECT r.* FROM routine_run_events e JOIN routine_runs r ON r.id = e.run_id
       WHERE e.routine = $1 AND e.event_id = $2`,
      [routine, eventId],
    )
    return row && toRun(row)
  }
  return {
    async addRoutine({ name, spec }) {
      const now = Date.now()
      const changed = await sql.run(
        `INSERT INTO routines (name, spec, paused, created_at, updated_at) VALUES ($1, $2, false, $3, $3)
         ON CONFLICT (name) DO NOTHING`,
        [name, JSON.stringify(spec), now],
      )
      return changed ? { name, spec, paused: false, createdAt: now, updatedAt: now } : null
    },
    async getRoutine(name) {
      const row = await sql.get('SELECT * FROM routines WHERE name = $1', [name])
      return row && toRoutine(row)
    },
    async listRoutines() {
      return (await sql.all('SELECT * FROM routines ORDER BY name COLLATE "BINARY"')).map(toRoutine)
    },
    async pauseRoutine(name, paused) {
      return (
        (await sql.run('UPDATE routines SET paused = $2, updated_at = $3 WHERE name = $1', [
          name,
          paused,
          Date.now(),
        ])) > 0
      )
    },
    async removeRoutine(name) {
      const [, , gone] = await sql.batch([
        ['DELETE FROM routine_run_events WHERE routine = $1', [name]],
        ['DELETE FROM routine_runs WHERE routine = $1', [name]],
        ['DELETE FROM routines WHERE name = $1', [name]],
      ])
      return (gone ?? 0) > 0
    },
    async takeRoutineEvent(input) {
      const { routine, runId, key, event, now } = input
      const joins = inStates(input.joins)
      const linked = 'SELECT 1 FROM routine_run_events WHERE routine = $3 AND event_id = $4'
      const joined = `FROM routine_runs WHERE routine = $1 AND run_key = $2 AND ${joins}`
      const counts = await sql.batch([
        // A new run, unless one of the key it may join is there (or, racing, the unique index on
        // pending runs refuses a second).
        [
          `INSERT INTO routine_runs (id, routine, run_key, state, cause, due_at, event_count, cost_usd, turns, created_at)
           SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), 'pending', CAST($4 AS TEXT),
             CAST($5 AS BIGINT), 0, 0, 0, CAST($6 AS BIGINT)
           WHERE NOT EXISTS (SELECT 1 FROM routine_runs WHERE routine = $2 AND run_key = $3 AND ${joins})
           ON CONFLICT DO NOTHING`,
          [runId, routine, key, input.trigger, input.dueAt, now],
        ],
        // That run counts the event; a pending one waits for it, up to its first event's time + maxWaitMs.
        [
          `UPDATE routine_runs SET event_count = event_count + 1,
             due_at = CASE WHEN state = 'pending' THEN
               (CASE WHEN $5 < created_at + $6 THEN $5 ELSE created_at + $6 END) ELSE due_at END
           WHERE routine = $1 AND run_key = $2 AND ${joins} AND NOT EXISTS (${linked})`,
          [routine, key, routine, event.id, input.dueAt, input.maxWaitMs],
        ],
        [
          `INSERT INTO routine_run_events (routine, event_id, run_id, n, event, sent, at)
           VALUES ($3, $4, (SELECT id ${joined}), (SELECT event_count ${joined}), $5, false, $6)
           ON CONFLICT (routine, event_id) DO NOTHING`,
          [routine, key, routine, event.id, JSON.stringify(event), now],
        ],
        // The run made for an event taken before holds nothing: it goes again.
        ['DELETE FROM routine_runs WHERE id = $1 AND event_count = 0', [runId]],
        ...(input.delivery
          ? ([
              [
                'DELETE FROM deliveries WHERE subscriber = $1 AND seq = $2',
                [input.delivery.subscriber, input.delivery.seq],
              ],
            ] as const)
          : []),
      ])
      const run = await runOfEvent(routine, event.id)
      if (!run) throw new Error(`routine ${routine}: event ${event.id} was taken by no run`)
      return { run, duplicate: counts[2] === 0, joined: counts[2] !== 0 && counts[0] === 0 }
    },
    async replayRoutineRun(id, newId, now) {
      const params = [id, newId, now]
      await sql.batch([
        [
          `INSERT INTO routine_runs (id, routine, run_key, state, cause, due_at, event_count, cost_usd, turns, created_at)
           SELECT CAST($2 AS TEXT), routine, run_key, 'pending', 'replay', CAST($3 AS BIGINT), event_count, 0, 0,
             CAST($3 AS BIGINT)
           FROM routine_runs r WHERE id = $1 AND ${ENDED}
             AND NOT EXISTS (SELECT 1 FROM routine_runs o WHERE o.routine = r.routine AND o.run_key = r.run_key
               AND o.${OPEN})
           ON CONFLICT DO NOTHING`,
          params,
        ],
        // Its events again, each under a name of the new run's: an event is taken once per routine.
        [
          `INSERT INTO routine_run_events (routine, event_id, run_id, n, event, sent, at)
           SELECT routine, event_id || ':' || CAST($2 AS TEXT), CAST($2 AS TEXT), n, event, false, CAST($3 AS BIGINT)
           FROM routine_run_events WHERE run_id = $1 AND EXISTS (SELECT 1 FROM routine_runs WHERE id = $2)`,
          params,
        ],
      ])
      const row = await sql.get('SELECT * FROM routine_runs WHERE id = $1', [newId])
      return row && toRun(row)
    },
    async getRoutineRun(id) {
      const row = await sql.get('SELECT * FROM routine_runs WHERE id = $1', [id])
      return row && toRun(row)
    },
    async routineRuns({ routine, states, limit }) {
      const where = [routine === undefined ? '' : 'routine = $2', states ? inStates(states) : ''].filter(
        Boolean,
      )
      const rows = await sql.all(
        `SELECT * FROM routine_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at DESC, id COLLATE "BINARY" DESC LIMIT $1`,
        routine === undefined ? [limit] : [limit, routine],
      )
      return rows.map(toRun)
    },
    async moveRoutineRun(id, from, to, change = {}) {
      const set = setClause(change, 3)
      const row = await sql.get(
        `UPDATE routine_runs SET state = $2${set.text} WHERE id = $1 AND ${inStates(from)} RETURNING *`,
        [id, to, ...set.params],
      )
      return row && toRun(row)
    },
    async updateRoutineRun(id, change) {
      const set = setClause(change, 2)
      if (!set.params.length) return
      await sql.run(`UPDATE routine_runs SET ${set.text.slice(2)} WHERE id = $1`, [id, ...set.params])
    },
    async runEvents(runId, options = {}) {
      const rows = await sql.all(
        `SELECT * FROM routine_run_events WHERE run_id = $1 ${options.unsent ? 'AND NOT sent' : ''} ORDER BY n`,
        [runId],
      )
      return rows.map(toRunEvent)
    },
    async markRunEventsSent(runId, ns) {
      for (const n of ns)
        await sql.run('UPDATE routine_run_events SET sent = true WHERE run_id = $1 AND n = $2', [runId, n])
    },
  }
}
