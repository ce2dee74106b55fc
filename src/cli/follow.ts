// One turn of a driven session followed at the terminal (`run`, `sessions send`): its lines as they
// come, its prompts asked inline while answers from anywhere else also count, and how the turn ended.
import { createInterface, type Interface } from 'node:readline'
import { contentBlocks, type ResultLine, resultOf } from '../claude/messages.js'
import type { HubApi } from '../client/api-client.js'
import { formatUsd } from '../core/money.js'
import { linesAfter } from '../core/replay.js'
import type { PendingInput, SessionView } from '../core/session-api.js'
import { promptText, toolCallView } from '../core/tool-call-text.js'

const out = (text: string) => process.stdout.write(`${text}\n`)

/** The seq of the session's last stored line: a turn followed from here shows only its own lines. */
export async function lastSeq(hub: HubApi, id: string): Promise<number> {
  let last = 0
  for await (const { seq } of linesAfter(
    (after) => hub.call('sessionLines', { params: { id }, query: { after } }),
    0,
  ))
    last = seq
  return last
}

/**
 * Prints the turn's lines after `after` and handles its prompts until the turn ends. Returns the
 * exit code: 0 for a turn that ended well, 1 for one that failed or that Claude Code reported as an
 * error (its `result` line's is_error: "Not logged in", an API error), with the reason on stderr.
 * `onInterrupt` runs on Ctrl-C, after the turn was interrupted.
 */
export async function followTurn(
  hub: HubApi,
  id: string,
  after: number,
  onInterrupt: () => Promise<void>,
): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY })
  rl.on('close', () => closedInputs.add(rl))
  // Ctrl-C ends Claude's turn, not the session: it stays in the hub for its next message.
  const interrupt = () => {
    void hub
      .call('interrupt', { params: { id } })
      .catch(() => {})
      .then(onInterrupt)
      .finally(() => process.exit(130))
  }
  rl.on('SIGINT', interrupt)
  process.once('SIGINT', interrupt)
  const turn = { printed: after, result: null as ResultLine | null }
  try {
    for (;;) {
      const view = await hub.call('session', { params: { id }, query: { wait: 2 } })
      await printLines(hub, id, turn)
      if (view.pendingInputs.length) {
        await answerInline(hub, id, view.pendingInputs[0] as PendingInput, rl)
        continue
      }
      if (view.status === 'running' || view.status === 'waiting_for_input') continue
      await printLines(hub, id, turn)
      return ended(id, view, turn.result)
    }
  } finally {
    process.off('SIGINT', interrupt)
    rl.close()
  }
}

/**
 * What happens once the turn is followed (`how`): the session's CLI is stopped, since an idle one
 * holds a few hundred MB for nothing until the hub's idle timer ends it; `keep` leaves it running.
 * Either way the session stays in the hub, and its next message resumes it.
 */
export function afterTurn(hub: HubApi, id: string, keep: boolean) {
  return async (how: 'done' | 'interrupted'): Promise<void> => {
    if (!keep) {
      const view = await hub.call('session', { params: { id } }).catch(() => null)
      if (view?.live) await hub.call('stopSession', { params: { id } }).catch(() => {})
    }
    const next = `switchboard sessions send ${id} "<message>"`
    if (how === 'interrupted')
      process.stderr.write(
        `\nswitchboard: interrupted; session ${id} stays in the hub: switchboard sessions show ${id} (continue it: ${next})\n`,
      )
    else out(`session ${id} stays in the hub${keep ? ', its Claude Code running' : ''}; continue it: ${next}`)
  }
}

/** The turn's last word: its status, and why when it failed. */
function ended(id: string, view: SessionView, result: ResultLine | null): number {
  // The CLI answers some failures itself, as a result marked is_error (subtype "success" or not).
  const failed = result?.is_error === true
  const status = failed ? 'error' : view.status
  out(`— ${status}${view.lastResult || failed ? '' : ' (no result)'}`)
  if (view.status === 'idle' && !failed) return 0
  const reason = failed
    ? result?.result || `Claude Code reported an error (${String(result?.subtype)})`
    : `${view.status}${view.reason ? `: ${view.reason}` : ''}`
  process.stderr.write(`switchboard: session ${id}: ${reason}\n`)
  return 1
}

async function printLines(hub: HubApi, id: string, turn: { printed: number; result: ResultLine | null }) {
  for await (const { seq, line } of linesAfter(
    (after) => hub.call('sessionLines', { params: { id }, query: { after } }),
    turn.printed,
  )) {
    turn.printed = seq
    if (line.type === 'assistant')
      for (const block of contentBlocks(line)) {
        if (block.type === 'text') out(String(block.text))
        if (block.type === 'tool_use') out(`● ${block.name} ${toolUseText(String(block.name), block.input)}`)
      }
    if (line.type === 'system' && line.subtype === 'decision_answered')
      out(
        `(${line.behavior === 'deny' ? 'denied' : 'allowed'} by ${String(line.answered_by)}; nobody was asked)`,
      )
    const result = resultOf(line)
    if (result) {
      turn.result = result
      out(
        `(${result.is_error === true ? 'error' : result.subtype}, ${result.num_turns ?? 0} turns, ${formatUsd(result.total_cost_usd ?? 0)})`,
      )
    }
  }
}

/** A tool call as the prompts show it (`$ <command>`, a file and its diff …), later lines indented. */
function toolUseText(name: string, input: unknown): string {
  const object =
    input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null
  return toolCallView(name, object, object ? null : JSON.stringify(input)).replace(/\n/g, '\n  ')
}

const closedInputs = new WeakSet<Interface>()

/** Asks here; if the decision is answered elsewhere first, the question is withdrawn. */
async function answerInline(hub: HubApi, id: string, p: PendingInput, rl: Interface): Promise<void> {
  // The call as every other surface shows it, then the question on a line of its own.
  if (p.kind !== 'plan') out(promptText(p))
  const controller = new AbortController()
  const ask = `${p.kind === 'plan' ? 'Approve the plan?' : 'Allow?'} [y/n] (or answer "${p.code}" from anywhere) `
  // With no terminal input left (stdin closed), the answer can only come from elsewhere.
  let typed: Promise<string | null>
  if (closedInputs.has(rl)) {
    out(ask)
    typed = new Promise<null>(() => {})
  } else {
    typed = new Promise<string | null>((resolve) => {
      rl.question(ask, { signal: controller.signal }, resolve)
      controller.signal.addEventListener('abort', () => resolve(null))
      rl.once('close', () => resolve(null))
    })
  }
  const elsewhere = (async () => {
    while (!controller.signal.aborted) {
      const view: SessionView = await hub.call('session', { params: { id }, query: { wait: 1 } })
      if (!view.pendingInputs.some((q) => q.decision === p.decision)) return 'elsewhere'
      await new Promise((r) => setTimeout(r, 250))
    }
    return null
  })()
  const first = await Promise.race([typed, elsewhere])
  controller.abort()
  if (first === 'elsewhere' || first === null) {
    if (first === 'elsewhere') out(`\n(answered elsewhere)`)
    return
  }
  const yes = /^\s*y(es)?\s*$/i.test(first)
  await hub
    .call('respond', {
      params: { id },
      body: {
        decision: p.decision,
        answer: yes ? { behavior: 'allow' } : { behavior: 'deny', message: 'Denied at the terminal' },
      },
    })
    .catch((err: Error) => out(`(${err.message})`))
}
