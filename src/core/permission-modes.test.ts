import { expect, it } from 'vitest'
import { permissionModeBodySchema } from './api/schemas.js'
import { claudeOptionsSchema } from './claude-options.js'
import { DASHBOARD_PERMISSION_MODES, PERMISSION_MODES } from './permission-modes.js'

it('takes a mode from the one list on every surface, the dashboard offering a part of it', () => {
  expect(DASHBOARD_PERMISSION_MODES.every((m) => (PERMISSION_MODES as readonly string[]).includes(m))).toBe(
    true,
  )
  expect(claudeOptionsSchema.shape.permissionMode.unwrap().options).toEqual([...PERMISSION_MODES])
  expect(permissionModeBodySchema.shape.mode.options).toEqual([...PERMISSION_MODES])
  expect(claudeOptionsSchema.safeParse({ cwd: '/tmp', permissionMode: 'sometimes' }).success).toBe(false)
})
