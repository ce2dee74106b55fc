// What each of the six claude_* tools does with its checked arguments, through the hub's session API.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import type * as z from 'zod'
import { type HubApi, HubApiError } from '../client/api-client.js'
import type { ClaudeOptions } from '../core/claude-options.js'
import { conflict, invalid, notFound } from '../core/errors.js'
import { unaskedPermissionModes } from '../core/permission-modes.js'
import type { SessionView } from '../core/session-api.js'
import { decisionResult, hubAnswer, isPrompt, promptAnswer } from './answer.js'
import { listedResult, sessionResult } from './results.js'
import { SessionLines } from './session-lines.js'
import type { ToolName, tools } from './tools.js'

type Tools = typeof tools
export type Handlers = {
  [K in ToolName]: (args: z.output<Tools[K]['args']>) => Promise<z.output<Tools[K]['result']>>
}

export interface HandlerContext {
  hub: HubApi
  /** Waits up to `waitSeconds` for the turn, putting pending inputs to the person where the client can. */
  settle(id: string, waitSeconds: number): Promise<SessionView>
  /** The owner started `switchboard mcp --allow-pre-approval`. */
  allowPreApproval: boolean
}

/** How many lines of Claude's text a tool other than claude_get_status answers with: the seed's default. */
const OUTPUT_LINES = 50

/** The seed's default folder is the server's own; a relative one is read from there too. */
function folder(dir: string | undefined): string {
  const path = resolve(dir ?? process.cwd())
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw invalid(`workingDirectory: no such folder: ${path}`)
  return path
}

/**
 * Every option by which an agent could let its child run tools with no decision on record: it would
 * approve the calls itself. Options that only restrict (plan, dontAsk, disallowedTools) stay open.
 * Executable config (MCP servers, settings, plugins) is no option of the tool at all.
 */
function preApprovals(a: z.output<typeof tools.claude_create_session.args>): string[] {
  const found: string[] = []
  if (a.permissionMode && unaskedPermissionModes.has(a.permissionMode))
    found.push(`permissionMode ${a.permissionMode}`)
  if (a.allowedTools?.length) found.push('allowedTools')
  if (a.dangerouslySkipPermissions) found.push('dangerouslySkipPermissions')
  return found
}

function permissionMode(
  a: z.output<typeof tools.claude_create_session.args>,
  allowPreApproval: boolean,
): ClaudeOptions['permissionMode'] {
  const asked = preApprovals(a)
  if (asked.length && !allowPreApproval)
    throw invalid(
      `${asked.join(', ')} ${asked.length > 1 ? 'are' : 'is'} refused: tools would run without asking; the owner may start switchboard mcp with --allow-pre-approval`,
    )
  if (!a.dangerouslySkipPermissions) return a.permissionMode
  if (a.permissionMode && a.permissionMode !== 'bypassPermissions')
    throw invalid(`dangerouslySkipPermissions: true contradicts permissionMode ${a.permissionMode}`)
  return 'bypassPermissions'
}

export function createHandlers({ hub, settle, allowPreApproval }: HandlerContext): Handlers {
  const lines = new SessionLines(hub)
  const answer = async (view: SessionView, outputLines = OUTPUT_LINES) =>
    sessionResult(view, await lines.of(view.id), outputLines)

  /** The seed resumes any session claude_list_sessions shows, also one found on disk the hub never drove. */
  async function sendOrResume(id: string, message: string, fork?: boolean): Promise<SessionView> {
    try {
      return await hub.call('sendMessage', { params: { id }, body: { text: message, fork } })
    } catch (err) {
      if (!(err instanceof HubApiError && err.status === 404)) throw err
      const found = (await hub.call('history')).sessions.find((s) => s.id === id && !s.managed)
      if (!found) throw err
      return hub.call('createSession', {
        body: {
          prompt: message,
          options: { cwd: found.cwd ?? process.cwd(), resume: id, ...(fork ? { forkSession: true } : {}) },
        },
      })
    }
  }

  return {
    async claude_create_session(a) {
      // What is left in `flags` has the CLI option's own name; the rest is translated below.
      const {
        prompt,
        workingDirectory,
        systemPrompt,
        dangerouslySkipPermissions,
        fork,
        topics,
        waitSeconds,
        agent,
        ...flags
      } = a
      const view = await hub.call('createSession', {
        body: {
          prompt,
          options: {
            ...flags,
            cwd: folder(workingDirectory),
            permissionMode: permissionMode(a, allowPreApproval),
            ...(systemPrompt !== undefined ? { appendSystemPrompt: systemPrompt } : {}),
            ...(fork && a.resume ? { forkSession: true } : {}),
          },
          ...(topics ? { topics } : {}),
          ...(agent ? { agent } : {}),
        },
      })
      return answer(await settle(view.id, waitSeconds))
    },

    async claude_send_message(a) {
      const view = await sendOrResume(a.sessionId, a.message, a.fork)
      return answer(await settle(view.id, a.waitSeconds))
    },

    async claude_get_status(a) {
      return answer(await settle(a.sessionId, a.waitSeconds), a.outputLines)
    },

    async claude_respond(a) {
      const pending = (await hub.call('session', { params: { id: a.sessionId } })).pendingInputs.find(
        (p) => p.decision === a.inputId || p.code === a.inputId,
      )
      const view = await hub.call('respond', {
        params: { id: a.sessionId },
        body: { decision: a.inputId, answer: hubAnswer(a, pending) },
      })
      return answer(await settle(view.id, a.waitSeconds))
    },

    async claude_interrupt(a) {
      const view = await hub.call('interrupt', { params: { id: a.sessionId } })
      // The seed answers `interrupted`: the turn ends a moment after the CLI takes the request.
      return answer(await hub.settle(view.id, a.waitSeconds))
    },

    async switchboard_decisions() {
      const { decisions } = await hub.call('decisions')
      const now = Date.now()
      return { decisions: decisions.filter(isPrompt).map((d) => decisionResult(d, now)) }
    },

    async switchboard_answer(a) {
      const ref = a.code.trim().toLowerCase()
      const named = (await hub.call('decisions')).decisions.filter(
        (d) => isPrompt(d) && (d.code === ref || d.id === ref),
      )
      if (named.length > 1)
        throw conflict(`"${ref}" is open in ${named.length} sessions at once; answer it by its decisionId`)
      const [open] = named
      if (!open)
        throw notFound(`no open prompt "${ref}"; nothing was changed (switchboard_decisions lists them)`)
      const answer = promptAnswer(open, a)
      const { decision } = await hub.call('answer', { params: { ref: open.id }, body: answer })
      return {
        code: decision.code,
        kind: decision.kind,
        session: decision.owner,
        behavior: answer.behavior,
        ...(answer.behavior === 'allow' && answer.answers ? { answers: answer.answers } : {}),
      }
    },

    async claude_list_sessions(a) {
      const listed = (
        await hub.call('history', { query: { cwd: a.projectDirectory && resolve(a.projectDirectory) } })
      ).sessions.slice(0, a.limit)
      const live = await Promise.all(
        listed.map((s) =>
          s.managed ? hub.call('session', { params: { id: s.id } }).then((v) => v.live) : false,
        ),
      )
      return { sessions: listed.map((s, i) => listedResult(s, live[i] === true)) }
    },
  }
}
