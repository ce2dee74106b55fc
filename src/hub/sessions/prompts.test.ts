// Prompts: a tool the CLI wants to run waits as a decision any surface may answer, and the answer
// reaches the CLI in the shape it expects; a prompt nobody can answer any more is cancelled.
import { afterEach, describe, expect, it } from 'vitest'
import type { FakeScript } from '../../../test/helpers/fake-claude.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'
import { toPermissionAnswer } from './prompts.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const script: FakeScript = {
  turns: [
    {
      when: 'clean up',
      steps: [
        { ask: { tool: 'Bash', input: { command: 'rm -rf build' }, description: 'Remove the build' } },
        { say: 'cleaned' },
      ],
    },
    {
      when: 'ask me',
      steps: [{ ask: { tool: 'AskUserQuestion', input: { questions: [{ question: 'Which colour?' }] } } }],
    },
    { when: 'plan', steps: [{ ask: { tool: 'ExitPlanMode', input: { plan: '1. do it' } } }] },
  ],
}

const waiting = (id: string) => world.until(id, (v) => v.status === 'waiting_for_input', 'the prompt')
/** What the CLI says the tool did: the content of its last tool_result. */
async function toolResult(id: string): Promise<{ is_error: boolean; content: string }> {
  const { lines } = await world.sessions.lines(id, 0)
  const results = lines.flatMap(({ line }) => {
    const content = (line.message as { content?: unknown } | undefined)?.content
    return Array.isArray(content) ? content.filter((c) => c.type === 'tool_result') : []
  })
  return results.at(-1)
}

describe('a tool call', () => {
  it('waits as a pending input, and runs the input the person edited when they allow it', async () => {
    world = sessionWorld(script)
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    const view = await waiting(id)
    expect(view.pendingInputs).toEqual([
      {
        decision: expect.stringMatching(/^dec_/),
        code: expect.any(String),
        kind: 'permission',
        tool_name: 'Bash',
        input: { command: 'rm -rf build' },
        description: 'Remove the build',
      },
    ])
    const [pending] = view.pendingInputs
    if (!pending) throw new Error('no prompt')
    await world.sessions.respond(
      id,
      pending.code,
      { behavior: 'allow', updatedInput: { command: 'rm -rf build/tmp' } },
      'alice',
    )
    expect(await world.until(id, (v) => v.status === 'idle', 'the turn')).toMatchObject({
      pendingInputs: [],
      lastResult: 'cleaned',
    })
    expect(await toolResult(id)).toMatchObject({
      is_error: false,
      content: 'ran Bash {"command":"rm -rf build/tmp"}',
    })
    expect(await world.store.getDecision(pending.decision)).toMatchObject({
      status: 'answered',
      answeredBy: 'alice',
    })
  })

  it('denied by its decision id tells the CLI the person’s words', async () => {
    world = sessionWorld(script)
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    const [pending] = (await waiting(id)).pendingInputs
    if (!pending) throw new Error('no prompt')
    await world.sessions.respond(id, pending.decision, { behavior: 'deny', message: 'not the build' }, 'bob')
    await world.until(id, (v) => v.status === 'idle', 'the turn')
    expect(await toolResult(id)).toMatchObject({ is_error: true, content: 'not the build' })
  })

  it('that a rule allows runs at once, and the transcript says who answered', async () => {
    world = sessionWorld(script)
    await world.store.addRule({
      id: 'rule_1',
      toolName: 'Bash',
      match: 'exact',
      input: { command: 'rm -rf build' },
      pattern: null,
      effect: 'allow',
      scope: 'everywhere',
      scopeValue: null,
      expiresAt: null,
      createdBy: 'alice',
    })
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the turn')
    const { lines } = await world.sessions.lines(id, 0)
    expect(lines.map((l) => l.line)).toContainEqual(
      expect.objectContaining({
        subtype: 'decision_answered',
        tool_name: 'Bash',
        behavior: 'allow',
        answered_by: 'rule rule_1 (made by alice)',
      }),
    )
    expect(await toolResult(id)).toMatchObject({
      is_error: false,
      content: 'ran Bash {"command":"rm -rf build"}',
    })
  })

  it('that an operator’s rule allows runs at once in the sessions they started, and is asked in others', async () => {
    world = sessionWorld(script)
    await world.store.addRule({
      id: 'rule_alice',
      toolName: 'Bash',
      match: 'prefix',
      input: null,
      pattern: 'rm -rf build',
      effect: 'allow',
      scope: 'operator',
      scopeValue: 'alice',
      expiresAt: null,
      createdBy: 'alice',
    })
    const alices = await world.sessions.create('clean up', { cwd: world.dir }, { startedBy: 'alice' })
    await world.until(alices.id, (v) => v.status === 'idle', 'the turn')
    expect(await toolResult(alices.id)).toMatchObject({ is_error: false })
    const bobs = await world.sessions.create('clean up', { cwd: world.dir }, { startedBy: 'bob' })
    expect((await waiting(bobs.id)).pendingInputs).toMatchObject([{ tool_name: 'Bash' }])
  })

  it('that a deny rule matches is refused at once, the CLI told which rule', async () => {
    world = sessionWorld(script)
    await world.store.addRule({
      id: 'rule_rm',
      toolName: 'Bash',
      match: 'glob',
      input: null,
      pattern: 'rm *',
      effect: 'deny',
      scope: 'folder',
      scopeValue: world.dir,
      expiresAt: null,
      createdBy: 'alice',
    })
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    await world.until(id, (v) => v.status === 'idle', 'the turn')
    expect(await toolResult(id)).toMatchObject({
      is_error: true,
      content: 'Denied by rule rule_rm (Bash matching "rm *", made by alice)',
    })
  })
})

describe('a question and a plan', () => {
  it('are prompts of their own kinds, and a question’s answers go back with its input', async () => {
    world = sessionWorld(script)
    const question = await world.sessions.create('ask me', { cwd: world.dir })
    const plan = await world.sessions.create('plan', { cwd: world.dir })
    const [asked] = (await waiting(question.id)).pendingInputs
    expect((await waiting(plan.id)).pendingInputs[0]?.kind).toBe('plan')
    expect(asked?.kind).toBe('question')
    await world.sessions.respond(
      question.id,
      asked?.code ?? '',
      { behavior: 'allow', answers: { 'Which colour?': 'Blue' } },
      'carol',
    )
    await world.until(question.id, (v) => v.status === 'idle', 'the answer')
    expect(await toolResult(question.id)).toMatchObject({
      content:
        'ran AskUserQuestion {"questions":[{"question":"Which colour?"}],"answers":{"Which colour?":"Blue"}}',
    })
  })
})

describe('a prompt nobody can answer any more', () => {
  it('is withdrawn by an interrupt: nothing pending, the decision cancelled, the session interrupted', async () => {
    world = sessionWorld(script)
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    const [pending] = (await waiting(id)).pendingInputs
    await world.sessions.interrupt(id)
    expect(await world.until(id, (v) => v.status === 'interrupted', 'the interrupt')).toMatchObject({
      pendingInputs: [],
    })
    expect(await world.store.getDecision(pending?.decision ?? '')).toMatchObject({ status: 'cancelled' })
    await expect(
      world.sessions.respond(id, pending?.code ?? '', { behavior: 'allow' }, 'late'),
    ).rejects.toMatchObject({
      kind: 'not_found',
    })
  })

  it('is withdrawn even when telling the operators fails: the failure is the call’s, never left unhandled', async () => {
    world = sessionWorld(script)
    const unhandled: unknown[] = []
    const hear = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', hear)
    try {
      const { id } = await world.sessions.create('clean up', { cwd: world.dir })
      const [pending] = (await waiting(id)).pendingInputs
      // The store goes away under the hub as the prompt is withdrawn (a hub closing, a database lost).
      world.store.listSenders = () => Promise.reject(new Error('The database connection is not open'))
      await world.sessions.interrupt(id)
      await world.until(id, (v) => v.status === 'interrupted', 'the interrupt')
      expect(await world.store.getDecision(pending?.decision ?? '')).toMatchObject({ status: 'cancelled' })
      // Whatever was left to settle has settled: a rejection nobody handled is reported by now.
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', hear)
    }
  })

  it('is cancelled when its CLI is stopped', async () => {
    world = sessionWorld(script)
    const { id } = await world.sessions.create('clean up', { cwd: world.dir })
    const [pending] = (await waiting(id)).pendingInputs
    expect(await world.sessions.stop(id)).toMatchObject({ status: 'stopped', pendingInputs: [] })
    expect(await world.store.getDecision(pending?.decision ?? '')).toMatchObject({ status: 'cancelled' })
  })
})

describe('a stored answer', () => {
  const bash = { subtype: 'can_use_tool' as const, tool_name: 'Bash', input: { command: 'ls' } }
  it('is read before it reaches the CLI: anything unreadable is a denial', () => {
    expect(toPermissionAnswer(bash, { behavior: 'allow' })).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'ls' },
    })
    expect(toPermissionAnswer(bash, { behavior: 'maybe' })).toEqual({
      behavior: 'deny',
      message: 'unreadable answer',
    })
    expect(toPermissionAnswer(bash, null)).toEqual({ behavior: 'deny', message: 'unreadable answer' })
  })
})
