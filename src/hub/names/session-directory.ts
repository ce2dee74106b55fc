// Which session a reference means, and what people call it. Sessions are referred to in several ways
// (a driven session's `ses_…` or its subscriber `session:ses_…`, Claude Code's own session id for a
// session at a terminal, a channel's subscriber name); every surface needs the same two things of
// each: its key, the subscriber a message to it goes to and its chat thread is kept under, and its
// name, "api · fix the flaky test" (core/session-name.ts).
import { type DrivenAgent, drivenAgentOf } from '../../core/agents.js'
import { projectOf, sessionName } from '../../core/session-name.js'
import type { Store } from '../../store/store.js'
import type { TerminalSession } from '../../store/terminal-sessions.js'

export interface SessionInfo {
  /** The session's subscriber: where a message to it goes, what its thread is kept under. */
  key: string
  /** What a person calls it. */
  name: string
  kind: 'driven' | 'terminal' | 'channel' | 'unknown'
  /** Its working folder, when known. */
  folder: string | null
  /** The agent a driven session runs (another agent's session at a terminal is not told apart). */
  agent?: DrivenAgent
}

/** A driven session's subscriber (hub/sessions/leases.ts names it so). */
const DRIVEN = /^(?:session:)?(ses_[A-Za-z0-9_-]+)$/

/** What of the hub the directory reads: the store, and the channels connected here. */
export interface DirectorySources {
  readonly store: Pick<Store, 'getSession' | 'getTerminalSession' | 'terminalSessionsNamed' | 'getRoutineRun'>
  readonly connections: ReadonlyMap<
    string,
    { readonly folder: string | undefined; readonly claudeSession: string | undefined }
  >
}

export class SessionDirectory {
  constructor(private readonly hub: DirectorySources) {}

  /** The session `ref` names, however it is named; one known by nothing else is its own key and name. */
  async describe(ref: string): Promise<SessionInfo> {
    const { store, connections } = this.hub
    const driven = DRIVEN.exec(ref)?.[1]
    if (driven) {
      const key = `session:${driven}`
      const record = await store.getSession(driven)
      // A routine run's session is named by its routine (its id is the run's: hub/routines/runner.ts).
      const run = await store.getRoutineRun(`run_${driven.slice('ses_'.length)}`)
      const routine = run ? `routine ${run.routine}` : null
      if (record)
        return {
          key,
          name: sessionName({ ...record, title: record.title ?? routine }),
          kind: 'driven',
          folder: record.cwd,
          agent: drivenAgentOf(record.config),
        }
      // A run still at its gate: its session is not started yet.
      if (run) return { key, name: `${routine} · ${run.key}`, kind: 'driven', folder: null }
    }
    const terminal = (await store.getTerminalSession(ref)) ?? (await this.terminalNamed(ref))
    const channel = connections.get(terminal?.name ?? ref)
    if (terminal) return { ...terminalInfo(terminal), kind: channel ? 'channel' : 'terminal' }
    if (channel) {
      const served = channel.claudeSession ? await store.getTerminalSession(channel.claudeSession) : null
      if (served) return { ...terminalInfo(served), kind: 'channel' }
      const folder = channel.folder ?? null
      return {
        key: ref,
        name: sessionName({ id: ref, cwd: folder, title: untitled(ref, folder) }),
        kind: 'channel',
        folder,
      }
    }
    return { key: ref, name: ref, kind: 'unknown', folder: null }
  }

  /** The session at a terminal bound to this name now: the running one, else the last heard of. */
  private async terminalNamed(name: string): Promise<TerminalSession | null> {
    const named = await this.hub.store.terminalSessionsNamed(name)
    return (
      named.filter((t) => t.status === 'running').sort((a, b) => b.lastSeenAt - a.lastSeenAt)[0] ??
      named.sort((a, b) => b.lastSeenAt - a.lastSeenAt)[0] ??
      null
    )
  }
}

function terminalInfo(t: TerminalSession): Omit<SessionInfo, 'kind'> {
  const project = t.repository?.split('/').at(-1) ?? null
  const name = sessionName({
    id: t.name,
    cwd: t.folder,
    title: t.title ?? untitled(t.name, t.folder, project),
    project,
    branch: t.branch,
  })
  return { key: t.name, name, folder: t.folder }
}

/**
 * What tells a session with no title yet from the project's other sessions: its subscriber name, when
 * that is not just the project's (`--name alpha`, or `api-2` beside `api`).
 */
function untitled(key: string, folder: string | null, project: string | null = null): string | null {
  return key === (project ?? projectOf(folder)) ? null : key
}
