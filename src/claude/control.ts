// The control protocol over stream-json (PROTOCOLS.md §3, seed 001): host → CLI requests with ids,
// timeouts and typed errors, and the CLI's own requests (`can_use_tool`) answered by the host.
import { randomUUID } from 'node:crypto'
import { DomainError } from '../core/errors.js'
import type { PermissionMode } from '../core/permission-modes.js'
import {
  type CanUseTool,
  type CliLine,
  canUseToolSchema,
  controlCancelSchema,
  controlRequestSchema,
  controlResponseSchema,
  type HostLine,
  type PermissionAnswer,
} from './messages.js'

/** The CLI answered a control request with an error: as it is now, it will not do this. */
export class ControlError extends DomainError {
  override name = 'ControlError'
  constructor(
    readonly subtype: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super('conflict', `${subtype}: ${message}`)
  }
}

/** The CLI did not answer in time: something it depends on (or it) is stuck. */
export class ControlTimeoutError extends DomainError {
  override name = 'ControlTimeoutError'
  constructor(message: string) {
    super('unavailable', message)
  }
}

/** The process ended (or was never there) while a request waited: nothing runs to ask. */
export class ControlClosedError extends DomainError {
  override name = 'ControlClosedError'
  constructor(message: string) {
    super('conflict', message)
  }
}

export interface ControlHandlers {
  /** A tool wants to run. The signal aborts when the CLI cancels the request. */
  canUseTool(request: CanUseTool, signal: AbortSignal): Promise<PermissionAnswer>
}

type Waiter = {
  resolve(v: Record<string, unknown>): void
  reject(e: Error): void
  timer: NodeJS.Timeout
  subtype: string
}

export class ControlChannel {
  private readonly waiting = new Map<string, Waiter>()
  private readonly incoming = new Map<string, AbortController>()
  private closed: Error | null = null

  constructor(
    private readonly write: (line: HostLine) => Promise<void>,
    private readonly handlers: ControlHandlers,
    private readonly defaultTimeoutMs = 30_000,
  ) {}

  /** Sends a control request and resolves with the CLI's `response` object. */
  async request(
    subtype: string,
    payload: Record<string, unknown> = {},
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<Record<string, unknown>> {
    if (this.closed) throw this.closed
    const request_id = randomUUID()
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(request_id)
        reject(new ControlTimeoutError(`${subtype}: no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      this.waiting.set(request_id, { resolve, reject, timer, subtype })
    })
    try {
      await this.write({ type: 'control_request', request_id, request: { subtype, ...payload } })
    } catch (err) {
      this.settle(request_id)?.reject(err as Error)
    }
    return answer
  }

  // --- every subtype the CLI documents, typed -----------------------------------------------
  initialize(options: Record<string, unknown> = {}) {
    return this.request('initialize', options)
  }
  interrupt() {
    return this.request('interrupt')
  }
  setModel(model: string) {
    return this.request('set_model', { model })
  }
  setPermissionMode(mode: PermissionMode) {
    return this.request('set_permission_mode', { mode })
  }
  setMaxThinkingTokens(tokens: number | null) {
    return this.request('set_max_thinking_tokens', { max_thinking_tokens: tokens })
  }
  mcpStatus() {
    return this.request('mcp_status')
  }
  mcpMessage(serverName: string, message: Record<string, unknown>) {
    return this.request('mcp_message', { server_name: serverName, message })
  }
  mcpReconnect(serverName: string) {
    return this.request('mcp_reconnect', { serverName })
  }
  mcpToggle(serverName: string, enabled: boolean) {
    return this.request('mcp_toggle', { serverName, enabled })
  }
  mcpSetServers(servers: Record<string, Record<string, unknown>>) {
    return this.request('mcp_set_servers', { servers })
  }
  rewindFiles(userMessageId: string, dryRun = false) {
    return this.request('rewind_files', { user_message_id: userMessageId, dry_run: dryRun })
  }
  endSession(reason?: string) {
    return this.request('end_session', reason ? { reason } : {})
  }
  stopTask(taskId: string) {
    return this.request('stop_task', { task_id: taskId })
  }
  cancelAsyncMessage(uuid: string) {
    return this.request('cancel_async_message', { uuid })
  }
  applyFlagSettings(settings: Record<string, unknown>) {
    return this.request('apply_flag_settings', { settings })
  }
  getSettings() {
    return this.request('get_settings')
  }

  /** Takes the control lines out of the CLI's output; returns false for every other line. */
  handle(line: CliLine): boolean {
    if (line.type === 'control_response') {
      const parsed = controlResponseSchema.safeParse(line)
      if (!parsed.success) return true
      const r = parsed.data.response
      const waiter = this.settle(r.request_id)
      if (!waiter) return true
      if (r.subtype === 'success') waiter.resolve(r.response ?? {})
      else {
        const { subtype: _s, request_id: _id, error, ...details } = r
        waiter.reject(new ControlError(waiter.subtype, error, details))
      }
      return true
    }
    if (line.type === 'control_cancel_request') {
      const parsed = controlCancelSchema.safeParse(line)
      if (parsed.success) this.incoming.get(parsed.data.request_id)?.abort()
      return true
    }
    if (line.type === 'control_request') {
      const parsed = controlRequestSchema.safeParse(line)
      if (parsed.success) void this.answer(parsed.data.request_id, parsed.data.request)
      return true
    }
    return false
  }

  /** The process is gone: every waiting request fails now instead of timing out later. */
  close(reason: string): void {
    this.closed = new ControlClosedError(reason)
    for (const [id, waiter] of this.waiting) {
      clearTimeout(waiter.timer)
      waiter.reject(this.closed)
      this.waiting.delete(id)
    }
    for (const controller of this.incoming.values()) controller.abort()
  }

  private settle(id: string): Waiter | undefined {
    const waiter = this.waiting.get(id)
    if (waiter) {
      clearTimeout(waiter.timer)
      this.waiting.delete(id)
    }
    return waiter
  }

  private async answer(requestId: string, request: { subtype: string }): Promise<void> {
    const reply = (response: Record<string, unknown>) =>
      this.write({
        type: 'control_response',
        response: { subtype: 'success', request_id: requestId, response },
      })
    const fail = (error: string) =>
      this.write({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error } })
    try {
      if (request.subtype !== 'can_use_tool') {
        await fail(`unsupported request: ${request.subtype}`)
        return
      }
      const parsed = canUseToolSchema.safeParse(request)
      if (!parsed.success) {
        await fail(`malformed can_use_tool: ${parsed.error.issues[0]?.message}`)
        return
      }
      const controller = new AbortController()
      this.incoming.set(requestId, controller)
      try {
        const answer = await this.handlers.canUseTool(parsed.data, controller.signal)
        if (!controller.signal.aborted) await reply({ ...answer })
      } finally {
        this.incoming.delete(requestId)
      }
    } catch (err) {
      if (!this.closed) await fail((err as Error).message).catch(() => {})
    }
  }
}
