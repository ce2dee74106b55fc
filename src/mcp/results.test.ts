import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionView } from '../core/session-api.js'
import { sessionResult, sessionResultSchema } from './results.js'
import { type StoredLine, transcript } from './transcript.js'

interface Recording {
  waiting: { view: SessionView; lastSeq: number }
  final: { view: SessionView }
  lines: StoredLine[]
  question: { view: SessionView }
}
const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/recorded-session.json'), 'utf8'),
) as Recording

/** The result as it goes out: nothing beyond what the advertised outputSchema names. */
function checked(result: ReturnType<typeof sessionResult>) {
  expect(sessionResultSchema.parse(result)).toEqual(result)
  return result
}

describe('sessionResult on a recorded session', () => {
  it('shows a permission prompt as the seed’s pendingInput, with the tool call still running', () => {
    const { view, lastSeq } = recorded.waiting
    const lines = recorded.lines.filter((l) => l.seq <= lastSeq)
    expect(checked(sessionResult(view, transcript(lines), 50))).toEqual({
      sessionId: view.id,
      status: 'waiting_for_input',
      recentOutput: ['I will make it.'],
      pendingInputs: [
        {
          inputId: view.pendingInputs[0]?.decision,
          type: 'permission',
          toolName: 'Bash',
          toolInput: { command: 'touch made', description: 'make it' },
          description: 'Claude wants to run Bash: $ touch made (Claude\'s description: "make it")',
        },
      ],
      toolUseEvents: [{ toolName: 'Bash', status: 'running', toolUseId: 'toolu_fake1' }],
      costUsd: 0,
      turnCount: 0,
      claudeSessionId: view.claudeSessionId,
      next: expect.stringContaining('claude_respond'),
    })
  })

  it('tells allowed, denied and interrupted tool calls apart, and keeps an older turn’s result out', () => {
    const { view } = recorded.final
    const result = checked(sessionResult(view, transcript(recorded.lines), 3))
    expect(result).toMatchObject({
      status: 'interrupted',
      costUsd: view.costUsd,
      turnCount: 9,
      toolUseEvents: [
        { toolName: 'Bash', status: 'completed', toolUseId: 'toolu_fake1' },
        { toolName: 'Bash', status: 'denied', toolUseId: 'toolu_fake2' },
        { toolName: 'Bash', status: 'denied', toolUseId: 'toolu_fake3' },
      ],
    })
    // The hub's lastResult is the denied call's turn; the interrupted turn that followed had none.
    expect(view.lastResult).toContain('not that')
    expect(result.result).toBeUndefined()
    expect(result.recentOutput).toHaveLength(3)
    expect(result.recentOutput.slice(0, 2)).toEqual(['finished: not that', 'second line'])
    expect(result.recentOutput[2]).toMatch(/^(word )+/)
    expect(sessionResult(view, transcript(recorded.lines), 0).recentOutput).toEqual([])
  })

  it('gives a finished turn’s result once the turn has ended', () => {
    const lines = recorded.lines.filter((l) => l.seq <= 6)
    const idle: SessionView = { ...recorded.final.view, status: 'idle', pendingInputs: [] }
    expect(checked(sessionResult(idle, transcript(lines), 2))).toMatchObject({
      status: 'completed',
      result: 'finished: (Bash completed with no output)\nsecond line',
      recentOutput: ['finished: (Bash completed with no output)', 'second line'],
    })
  })

  it('names a question user_question and says what Claude asks', () => {
    const { view } = recorded.question
    expect(checked(sessionResult(view, transcript([]), 50)).pendingInputs).toEqual([
      {
        inputId: view.pendingInputs[0]?.decision,
        type: 'user_question',
        toolName: 'AskUserQuestion',
        toolInput: view.pendingInputs[0]?.input,
        description: 'Claude asks: Which colour?',
      },
    ])
  })
})
