import { expect, it } from 'vitest'
import { claudeOptionsSchema } from '../claude/process.js'
import { newSessionSchema, permissionModeSchema } from './dashboard-api.js'
import { dashboardPermissionModes, permissionModes } from './permission-modes.js'

it('takes a mode from the one list on every surface, the dashboard a part of it', () => {
  const dashboard = dashboardPermissionModes.options
  expect(dashboard.every((m) => permissionModes.options.includes(m))).toBe(true)
  expect(claudeOptionsSchema.shape.permissionMode.unwrap().options).toEqual(permissionModes.options)
  // Until dashboard-api.ts imports dashboardPermissionModes, its two copies are held to it here.
  expect(newSessionSchema.shape.permissionMode.unwrap().options).toEqual(dashboard)
  expect(permissionModeSchema.shape.mode.options).toEqual(dashboard)
})
