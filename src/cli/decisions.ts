// `switchboard decisions`: the prompts waiting for a person, on any hub of the database: code,
// session, kind, tool, what it would do, how long it has waited, and what happens if nobody answers
// (--json: each decision's expiresAt and onTimeout).
import type { Command } from 'commander'
import { namedWithAgent } from '../core/agents.js'
import type { DecisionRow } from '../core/api/rows.js'
import { timeoutLine } from '../core/decision-timeout.js'
import { deniedText, previewedInput, toolCallLine } from '../core/tool-call-text.js'
import { hubApi } from './options.js'
import { printJson } from './output.js'

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m`
  return `${Math.floor(s / 3600)}h`
}

/** Where a prompt comes from: what people call the session ("api · fix the flaky test"), and its agent when not Claude Code. */
function sessionOf(d: DecisionRow): string {
  return namedWithAgent(
    typeof d.request.session_name === 'string' ? d.request.session_name : d.owner,
    d.request.agent,
  )
}

/** One line of what the call would do. */
export function inputSummary(d: DecisionRow, width = 60): string {
  const input = (d.request.input ?? null) as Record<string, unknown> | null
  const preview = typeof d.request.input_preview === 'string' ? d.request.input_preview : null
  let text: string
  if (d.kind === 'question' && Array.isArray(input?.questions))
    text = input.questions.map((q) => String((q as { question?: unknown })?.question ?? '')).join(' / ')
  else if (d.kind === 'plan' && typeof input?.plan === 'string') text = input.plan
  else if (d.kind === 'denied')
    text = deniedText({ ...d.request, tool_name: String(d.request.tool_name ?? ''), input: input ?? {} })
  else if (input || preview !== null)
    text = toolCallLine(String(d.request.tool_name ?? ''), input ?? previewedInput(preview), preview)
  else text = String(d.request.description ?? '')
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}

/** What happens if nobody answers, and when ("Denied at 14:05 unless answered"); "waits on" without a timeout. */
export function endOf(d: DecisionRow): string {
  return d.expiresAt !== null && d.onTimeout !== null ? timeoutLine(d.expiresAt, d.onTimeout) : 'waits on'
}

export function registerDecisions(program: Command): void {
  program
    .command('decisions')
    .description('the prompts waiting for a person (answer them with switchboard answer <code> …)')
    .option('--json', 'JSON, for scripts')
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { decisions } = await hubApi(command).call('decisions')
      const prompts = decisions.filter((d) => d.kind !== 'pairing')
      if (opts.json) return printJson(prompts)
      if (!prompts.length) return void process.stdout.write('nothing waits for an answer\n')
      const now = Date.now()
      for (const d of prompts)
        process.stdout.write(
          `${[d.code, sessionOf(d), d.kind, String(d.request.tool_name ?? '-'), inputSummary(d), age(now - d.createdAt), endOf(d)].join('\t')}\n`,
        )
    })
}
