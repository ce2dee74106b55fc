// The Store's decisions area: what a person is asked to decide (a tool's permission, a pairing, a
// question, a plan), and the first answer given.
export type DecisionKind = 'permission' | 'pairing' | 'question' | 'plan' | 'denied' | 'signin'
export type DecisionStatus = 'open' | 'answered' | 'expired' | 'cancelled'

export interface Decision {
  id: string
  kind: DecisionKind
  /** What a person types to answer: a permission request id, a pairing code. */
  code: string
  /** The subscriber that asked (permission) or the pending sender (pairing). */
  owner: string
  status: DecisionStatus
  request: Record<string, unknown>
  answer: Record<string, unknown> | null
  answeredBy: string | null
  createdAt: number
  answeredAt: number | null
  expiresAt: number | null
}

export interface DecisionStore {
  openDecision(input: {
    kind: DecisionKind
    code: string
    owner: string
    request: Record<string, unknown>
    expiresAt: number | null
  }): Promise<Decision>
  openDecisionsByCode(kind: DecisionKind, code: string, now: number): Promise<Decision[]>
  /** First answer wins: returns null when the decision was no longer open. */
  answerDecision(id: string, answer: Record<string, unknown>, answeredBy: string): Promise<Decision | null>
  /** Answered decisions of an owner whose answer has not been handed on yet. */
  unrelayedAnswers(kind: DecisionKind, owner: string): Promise<Decision[]>
  /**
   * Marks an answer handed on; true only for the one call that marked it, so that of two relays
   * that read it unrelayed at once (a notice and a periodic read, or two hubs), one hands it on.
   */
  markRelayed(id: string): Promise<boolean>
  cancelOpenDecisions(kind: DecisionKind, owner: string): Promise<number>
  cancelDecisions(ids: string[]): Promise<void>
  /**
   * Marks every open decision of a kind whose time is up as expired and returns them. A prompt's
   * time is its timeout's, which answers it (hub/people/decisions.ts): only pairings are swept.
   */
  expireDecisions(now: number, kind: DecisionKind): Promise<Decision[]>
  countOpen(kind: DecisionKind, now: number): Promise<number>
  /** The newest 500 of a kind, of a status, or of both, newest first. */
  listDecisions(filter: { kind?: DecisionKind; status?: DecisionStatus }): Promise<Decision[]>
  getDecision(id: string): Promise<Decision | null>
  /**
   * The newest decision of a kind with this code and owner, however many others came since (a code
   * is given again once its decision is settled).
   */
  latestDecision(kind: DecisionKind, code: string, owner: string): Promise<Decision | null>
}
