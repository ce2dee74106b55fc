// Codex's command approval (`item/commandExecution/requestApproval`, shared/AGENTS.md §1e) as the
// session's tool prompt, and the person's answer back in Codex's words: allowed → accept, denied →
// decline. Codex runs the command it asked about or none: an answer that edits the command cannot
// be kept, so it declines rather than run what the person did not allow.
import * as z from 'zod'
import type { CanUseTool, PermissionAnswer } from '../../claude/messages.js'
import { CODEX_SHELL_TOOL } from './lines.js'

export const COMMAND_APPROVAL = 'item/commandExecution/requestApproval'

export const commandApprovalSchema = z
  .object({
    threadId: z.string(),
    turnId: z.string(),
    itemId: z.string(),
    command: z.string().nullable().optional(),
    cwd: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
  })
  .passthrough()
export type CommandApproval = z.infer<typeof commandApprovalSchema>

/** The prompt a person sees: Codex's shell command as Bash's, with Codex's reason. */
export function promptOf(approval: CommandApproval): CanUseTool {
  return {
    subtype: 'can_use_tool',
    tool_name: CODEX_SHELL_TOOL,
    input: { command: approval.command ?? '' },
    tool_use_id: approval.itemId,
    ...(approval.reason ? { description: approval.reason } : {}),
  }
}

/** The answer in Codex's words (CommandExecutionApprovalDecision). */
export function decisionOf(prompt: CanUseTool, answer: PermissionAnswer): 'accept' | 'decline' {
  if (answer.behavior !== 'allow') return 'decline'
  const asked = prompt.input.command
  const allowed = answer.updatedInput?.command ?? asked
  return allowed === asked ? 'accept' : 'decline'
}
