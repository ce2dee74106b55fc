// The calls operators allowed a retry of, after Claude Code's auto mode denied them: each lets
// exactly one call through, of the same tool with the same input in the same session, answered
// `allow` at its PreToolUse hook (which runs before auto mode's classifier and skips it). Telling
// the model "you may retry" alone would send it into the same wall: the classifier judges the
// retried call as it judged the first (docs/design-notes.md "A call auto mode denied").
import { canonicalJson } from '../people/rules.js'

/** A grant not used within this long is gone: the model retries at once or not at all. */
export const RETRY_GRANT_MS = 10 * 60_000

/**
 * A call's input as a grant compares it: all of it but Claude's own account of it (`description`),
 * which a retry may word again and which changes nothing of what runs.
 */
function whatRuns(input: Record<string, unknown>): string {
  const { description: _, ...runs } = input
  return canonicalJson(runs)
}

interface Grant {
  tool: string
  input: string
  by: string
  until: number
}

export class RetryGrants {
  private readonly grants = new Map<string, Grant[]>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Lets the session's next call of this tool with this input through, once. */
  grant(session: string, tool: string, input: Record<string, unknown>, by: string): void {
    const list = this.live(session)
    list.push({ tool, input: whatRuns(input), by, until: this.now() + RETRY_GRANT_MS })
    this.grants.set(session, list)
  }

  /**
   * Who allowed this call's retry, taking the grant (one call each); null: no grant for it, and the
   * call goes on as Claude Code decides.
   */
  take(session: string, tool: string, input: Record<string, unknown>): string | null {
    const list = this.live(session)
    const wanted = whatRuns(input)
    const i = list.findIndex((g) => g.tool === tool && g.input === wanted)
    if (i === -1) return null
    const [taken] = list.splice(i, 1)
    if (!list.length) this.grants.delete(session)
    return taken?.by ?? null
  }

  /** The session ended: nothing of it is let through later. */
  forget(session: string): void {
    this.grants.delete(session)
  }

  private live(session: string): Grant[] {
    const now = this.now()
    const list = (this.grants.get(session) ?? []).filter((g) => g.until > now)
    if (list.length) this.grants.set(session, list)
    else this.grants.delete(session)
    return list
  }
}
