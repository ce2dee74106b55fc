// The outputs the hub answers Claude Code's hooks with, in the shapes the pinned CLI's schemas take.
import { expect, it } from 'vitest'
import { contextOutput, hookInputSchema, permissionOutput } from './claude-hooks.js'

it('answers a permission dialog: allow, allow with the edited input, deny with its message', () => {
  expect(permissionOutput({ behavior: 'allow' })).toEqual({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  })
  expect(permissionOutput({ behavior: 'allow', updatedInput: { command: 'ls' } })).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command: 'ls' } },
    },
  })
  expect(permissionOutput({ behavior: 'deny', message: 'no' })).toEqual({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } },
  })
})

it('answers a question with its answers in the updated input, a plan with its input echoed, and sends a plan back with the comment', () => {
  const input = { questions: [{ question: 'Which?', options: [{ label: 'A' }] }] }
  const asks = { tool: 'AskUserQuestion', input }
  expect(permissionOutput({ behavior: 'allow', answers: { 'Which?': 'A' } }, asks)).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { ...input, answers: { 'Which?': 'A' } } },
    },
  })
  // A bare allow would leave the plan's dialog open: the input goes back with it.
  const plan = { tool: 'ExitPlanMode', input: { plan: '# p', planFilePath: '/h/.claude/plans/p.md' } }
  expect(permissionOutput({ behavior: 'allow' }, plan)).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: plan.input },
    },
  })
  expect(permissionOutput({ behavior: 'allow' }, { tool: 'ExitPlanMode', input: {} })).toMatchObject({
    hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: {} } },
  })
  expect(permissionOutput({ behavior: 'deny', message: 'add tests' }, plan)).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'add tests' },
    },
  })
  expect(contextOutput('PostToolUse', 'x')).toEqual({
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'x' },
  })
})

it('takes a hook input with what every hook sends, keeping the rest, and names what is missing', () => {
  const parsed = hookInputSchema.parse({
    session_id: 's',
    hook_event_name: 'Stop',
    cwd: '/w',
    stop_hook_active: false,
  })
  expect(parsed.stop_hook_active).toBe(false)
  expect(hookInputSchema.safeParse({ hook_event_name: 'Stop', cwd: '/w' }).success).toBe(false)
})
