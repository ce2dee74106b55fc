// Claude Code's permission modes (`--permission-mode`, and the control request that switches one):
// the one list every surface checks a mode against, or a part of it. Plain lists, no zod: the
// dashboard's bundle reads them too (the schema is claude-options.ts's).

export const PERMISSION_MODES = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
  'auto',
] as const
export type PermissionMode = (typeof PERMISSION_MODES)[number]

/**
 * The modes the dashboard offers. `dontAsk` refuses every tool not allowed beforehand, and the page
 * sets no allowed tools; `auto` the page has never offered. The API takes every mode: the CLI,
 * `switchboard run` and `switchboard mcp` offer them all.
 */
export const DASHBOARD_PERMISSION_MODES = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
] as const satisfies readonly PermissionMode[]
export type DashboardPermissionMode = (typeof DASHBOARD_PERMISSION_MODES)[number]

/** Modes in which the CLI runs some tool calls without asking (`auto`: its classifier decides). */
export const unaskedPermissionModes: ReadonlySet<PermissionMode> = new Set([
  'acceptEdits',
  'auto',
  'bypassPermissions',
])
