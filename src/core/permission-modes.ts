// Claude Code's permission modes (`--permission-mode`, and the control request that switches one):
// the one list every surface checks a mode against, or a part of it.
import { z } from 'zod'

export const permissionModes = z.enum([
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
  'auto',
])
export type PermissionMode = z.infer<typeof permissionModes>

/**
 * The modes the dashboard offers, and its API takes. `dontAsk` refuses every tool not allowed
 * beforehand, and the page sets no allowed tools; `auto` the page has never offered. Both stay with
 * the session API, `switchboard run` and `switchboard mcp`.
 */
export const dashboardPermissionModes = permissionModes.exclude(['dontAsk', 'auto'])
export type DashboardPermissionMode = z.infer<typeof dashboardPermissionModes>

/** Modes in which the CLI runs some tool calls without asking (`auto`: its classifier decides). */
export const unaskedPermissionModes: ReadonlySet<PermissionMode> = new Set([
  'acceptEdits',
  'auto',
  'bypassPermissions',
])
