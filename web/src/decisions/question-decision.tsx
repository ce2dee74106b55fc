// Claude asks (AskUserQuestion): one button per option. A single question is answered by one press;
// several (or multiple choice) are collected, then "Submit answers". "Other answer" takes free text.
import { useId, useImperativeHandle, useState } from 'react'
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import type { DecisionProps } from './decision-handle.ts'
import { inputOf } from './decision-text.ts'

interface Question {
  question: string
  header: string | null
  multiSelect: boolean
  options: { label: string; description: string | null }[]
}

function questionsOf(decision: DecisionRow): Question[] {
  const raw = inputOf(decision)?.questions
  if (!Array.isArray(raw)) return []
  return raw.flatMap((q): Question[] => {
    if (typeof q !== 'object' || q === null) return []
    const r = q as Record<string, unknown>
    if (typeof r.question !== 'string') return []
    const options = Array.isArray(r.options) ? r.options : []
    return [
      {
        question: r.question,
        header: typeof r.header === 'string' ? r.header : null,
        multiSelect: r.multiSelect === true,
        options: options.flatMap((o) => {
          const label = (o as Record<string, unknown> | null)?.label
          const description = (o as Record<string, unknown> | null)?.description
          return typeof label === 'string'
            ? [{ label, description: typeof description === 'string' ? description : null }]
            : []
        }),
      },
    ]
  })
}

const DECLINED = 'The user declined to answer.'

export function QuestionDecision({ decision, busy, send, ref }: DecisionProps) {
  const questions = questionsOf(decision)
  const single = questions.length === 1 && !questions[0]?.multiSelect
  const [chosen, setChosen] = useState<Record<string, string[]>>({})
  const [other, setOther] = useState<Record<string, string>>({})
  const baseId = useId()

  const answerOf = (q: Question): string => other[q.question]?.trim() || (chosen[q.question] ?? []).join(', ')
  const complete = questions.length > 0 && questions.every((q) => answerOf(q) !== '')
  const submit = () => {
    if (!complete) return
    send({ behavior: 'allow', answers: Object.fromEntries(questions.map((q) => [q.question, answerOf(q)])) })
  }
  const decline = () => send({ behavior: 'deny', message: DECLINED })
  useImperativeHandle(ref, () => ({ approve: submit, deny: decline }))

  const choose = (q: Question, label: string) => {
    if (single) {
      send({ behavior: 'allow', answers: { [q.question]: label } })
      return
    }
    setChosen((c) => {
      const now = c[q.question] ?? []
      const next = q.multiSelect
        ? now.includes(label)
          ? now.filter((l) => l !== label)
          : [...now, label]
        : [label]
      return { ...c, [q.question]: next }
    })
  }

  if (questions.length === 0) {
    return (
      <>
        <pre className="code">{JSON.stringify(decision.request, null, 2)}</pre>
        <div className="row">
          <button type="button" className="danger" disabled={busy} onClick={decline}>
            Decline
          </button>
        </div>
      </>
    )
  }

  return (
    <>
      {questions.map((q, qi) => {
        const otherId = `${baseId}-other-${qi}`
        return (
          <fieldset key={q.question} className="question">
            <legend>
              {q.header ? <span className="badge">{q.header}</span> : null} {q.question}
            </legend>
            {q.multiSelect ? <p className="muted">Choose any that apply.</p> : null}
            <div className="options">
              {q.options.map((o, oi) => {
                const descId = `${baseId}-d-${qi}-${oi}`
                const on = (chosen[q.question] ?? []).includes(o.label)
                return (
                  <div key={o.label} className="option">
                    <button
                      type="button"
                      className="option-choice"
                      disabled={busy}
                      aria-pressed={single ? undefined : on}
                      aria-describedby={o.description ? descId : undefined}
                      onClick={() => choose(q, o.label)}
                    >
                      {o.label}
                    </button>
                    {o.description ? (
                      <span id={descId} className="muted">
                        {o.description}
                      </span>
                    ) : null}
                  </div>
                )
              })}
            </div>
            <label htmlFor={otherId}>Other answer</label>
            <div className="row">
              <input
                id={otherId}
                value={other[q.question] ?? ''}
                onChange={(e) => setOther((o) => ({ ...o, [q.question]: e.target.value }))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && questions.length === 1 && other[q.question]?.trim()) {
                    e.preventDefault()
                    send({ behavior: 'allow', answers: { [q.question]: other[q.question]?.trim() ?? '' } })
                  }
                }}
              />
              {questions.length === 1 ? (
                <button
                  type="button"
                  disabled={busy || !other[q.question]?.trim()}
                  onClick={() =>
                    send({ behavior: 'allow', answers: { [q.question]: other[q.question]?.trim() ?? '' } })
                  }
                >
                  Answer
                </button>
              ) : null}
            </div>
          </fieldset>
        )
      })}
      <div className="row">
        {single ? null : (
          <button type="button" className="primary" disabled={busy || !complete} onClick={submit}>
            Submit answers
          </button>
        )}
        <button type="button" className="danger" disabled={busy} onClick={decline}>
          Decline
        </button>
      </div>
    </>
  )
}
