// The outputs the hub answers Claude Code's hooks with, in the shapes the pinned CLI's schemas take.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import {
  contextOutput,
  hookInputSchema,
  permissionDeniedSchema,
  permissionOutput,
  preToolAllow,
  RETRY_OUTPUT,
} from './claude-hooks.js'

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

it('reads a PermissionDenied hook as 2.1.330 sends it after auto mode’s classifier denies a call, and refuses one without its call or reason', () => {
  const sent = JSON.parse(
    readFileSync(
      new URL('../../test/fixtures/claude-hooks/permission-denied.bash.json', import.meta.url),
      'utf8',
    ),
  )
  expect(hookInputSchema.safeParse(sent).success).toBe(true)
  expect(permissionDeniedSchema.parse(sent)).toEqual({
    tool_name: 'Bash',
    tool_input: { command: 'echo ran-for-real', description: 'retry' },
    tool_use_id: 'toolu_fake2',
    reason: 'Test wall: this command is blocked',
  })
  const { reason: _, ...noReason } = sent
  expect(permissionDeniedSchema.safeParse(noReason).success).toBe(false)
  expect(permissionDeniedSchema.safeParse({ ...sent, tool_input: 'rm -rf build' }).success).toBe(false)
  expect(permissionDeniedSchema.safeParse({ ...sent, tool_name: '' }).success).toBe(false)
})

it('answers a denied call "may retry" in the only words PermissionDenied takes, and lets its retry through at PreToolUse', () => {
  expect(RETRY_OUTPUT).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } })
  expect(preToolAllow('ann allowed a retry')).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'ann allowed a retry',
    },
  })
})
