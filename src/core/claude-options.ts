// What a driven session's Claude Code is started with: the CLI's own flags, as the hub's API takes
// them (core/api/schemas.ts) and the driver turns them into arguments (claude/process.ts).
import * as z from 'zod'
import { PERMISSION_MODES } from './permission-modes.js'

export const claudeOptionsSchema = z
  .object({
    cwd: z.string().min(1),
    model: z.string().min(1).optional(),
    permissionMode: z.enum(PERMISSION_MODES).optional(),
    allowedTools: z.array(z.string().min(1)).optional(),
    disallowedTools: z.array(z.string().min(1)).optional(),
    maxTurns: z.number().int().positive().optional(),
    maxBudgetUsd: z.number().positive().optional(),
    systemPrompt: z.string().optional(),
    appendSystemPrompt: z.string().optional(),
    resume: z.string().min(1).optional(),
    forkSession: z.boolean().optional(),
    mcpConfig: z.string().min(1).optional(),
    includePartialMessages: z.boolean().optional(),
  })
  .strict()
export type ClaudeOptions = z.infer<typeof claudeOptionsSchema>
