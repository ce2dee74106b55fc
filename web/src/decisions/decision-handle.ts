// What the Inbox's keyboard shortcuts (a, d) call on the selected decision, and what each kind of
// decision's part is given.
import type { Ref } from 'react'
import type { Answer, DecisionRow } from '../../../src/core/api/rows.ts'

export interface DecisionHandle {
  approve: () => void
  deny: () => void
}

/** One decision's part of its card: the decision, whether an answer is on its way, how to send one. */
export interface DecisionProps {
  decision: DecisionRow
  busy: boolean
  send: (answer: Answer) => void
  ref: Ref<DecisionHandle>
}
