// What the Inbox's keyboard shortcuts (a, d) call on the selected decision.

export interface DecisionHandle {
  approve: () => void
  deny: () => void
}
