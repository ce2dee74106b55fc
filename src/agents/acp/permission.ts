// An ACP agent's `session/request_permission` as the session's tool prompt, and the person's answer
// back as one of the options the agent offered. Options are chosen by their kind (allow_once,
// reject_once), never by id: each agent names them its own way (Gemini CLI proceed_once/cancel,
// OpenCode once/reject). An answer that edits the input cannot be kept (ACP runs the call it asked
// about or none), so it rejects rather than run what the person did not allow; a request the agent
// withdrew (the turn was cancelled) is answered `cancelled`, as the protocol asks.
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk'
import type { CanUseTool, PermissionAnswer } from '../../claude/messages.js'
import { toolOf } from './lines.js'

/** The prompt a person sees: the tool call as the line model names it, with its title. */
export function promptOf(request: RequestPermissionRequest): CanUseTool {
  const { name, input } = toolOf(request.toolCall)
  const title = request.toolCall.title
  return {
    subtype: 'can_use_tool',
    tool_name: name,
    input,
    tool_use_id: request.toolCall.toolCallId,
    ...(title && title !== input.command ? { description: title } : {}),
  }
}

/** The option the answer picks, by kind: once, never always; cancelled when none fits or it was withdrawn. */
export function outcomeOf(
  request: RequestPermissionRequest,
  prompt: CanUseTool,
  answer: PermissionAnswer | null,
): RequestPermissionResponse {
  const allowed = answer?.behavior === 'allow' && sameInput(prompt.input, answer.updatedInput)
  const kinds = allowed ? ['allow_once'] : ['reject_once', 'reject_always']
  const option = answer
    ? kinds.map((k) => request.options.find((o) => o.kind === k)).find(Boolean)
    : undefined
  return option
    ? { outcome: { outcome: 'selected', optionId: option.optionId } }
    : { outcome: { outcome: 'cancelled' } }
}

/** Whether an allow keeps the call as asked: the same command, or for other tools the same input. */
function sameInput(asked: Record<string, unknown>, updated: Record<string, unknown> | undefined): boolean {
  if (updated === undefined) return true
  if (typeof asked.command === 'string') return (updated.command ?? asked.command) === asked.command
  return JSON.stringify(updated) === JSON.stringify(asked)
}
