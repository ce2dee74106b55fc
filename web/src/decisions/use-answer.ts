// Answering a decision: POST /api/decisions/:id, and what to say when someone else was first (409).
import { useState } from 'react'
import type { Answer, DecisionRow } from '../../../src/core/api/rows.ts'
import { answerErrorText, call } from '../api/client.ts'

export function useAnswer(decision: DecisionRow, onAnswered: (d: DecisionRow) => void) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const send = async (answer: Answer) => {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      const { decision: answered } = await call('answer', { params: { ref: decision.id }, body: answer })
      onAnswered(answered)
    } catch (err) {
      setError(answerErrorText(err))
    } finally {
      setBusy(false)
    }
  }

  return { busy, error, setError, send }
}
