// "Approve all N identical": one press approves every open prompt that asks for the same tool with
// the same input (POST /api/decisions/:id for each). Each answered card closes as usual; prompts
// another surface answered first are reported to the Inbox (onProblems), which keeps the message.
import { useState } from 'react'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { answerErrorText, call } from '../api/client.ts'
import { requestText } from '../decisions/decision-text.ts'
import { useSettled } from '../decisions/use-settled.ts'

export function BatchApprove({
  group,
  onAnswered,
  onProblems,
}: {
  group: DecisionRow[]
  onAnswered: (d: DecisionRow) => void
  onProblems: (problems: string[]) => void
}) {
  const [busy, setBusy] = useState(false)
  const settled = useSettled()
  const tool = (group[0] && requestText(group[0], 'tool_name')) ?? 'a tool'

  const approveAll = async () => {
    if (busy || !settled) return
    setBusy(true)
    onProblems([])
    const results = await Promise.allSettled(
      group.map((d) => call('answer', { params: { ref: d.id }, body: { behavior: 'allow' } })),
    )
    const problems: string[] = []
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') onAnswered(result.value.decision)
      else problems.push(`${group[i]?.code ?? 'A prompt'}: ${answerErrorText(result.reason)}`)
    })
    onProblems(problems)
    setBusy(false)
  }

  return (
    <div className="batch card">
      <p>
        {group.length} prompts ask for <span className="tool-name">{tool}</span> with the same input.
      </p>
      <button
        type="button"
        className="primary batch-approve"
        disabled={busy || !settled}
        onClick={() => void approveAll()}
      >
        {`Approve all ${group.length} identical`}
      </button>
    </div>
  )
}
