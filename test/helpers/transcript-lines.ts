// Transcript lines as Claude Code 2.1.330 writes them (shapes taken from a real run:
// test/fixtures/transcripts/print-hook-context.jsonl), for tests that play Claude Code writing its
// session's transcript while the hub reads it.
import { randomUUID } from 'node:crypto'
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { projectFolderName } from '../../src/claude/transcript-file.js'

export interface TranscriptSession {
  /** The Claude Code session id (the file's name). */
  session: string
  cwd: string
  /** Claude Code's config folder (CLAUDE_CONFIG_DIR, ~/.claude by default). */
  configDir: string
}

/** Where Claude Code keeps the session's transcript: `<config>/projects/<cwd as a name>/<session>.jsonl`. */
export function transcriptPath(s: TranscriptSession): string {
  return join(s.configDir, 'projects', projectFolderName(s.cwd), `${s.session}.jsonl`)
}

/** What every line of a session carries after its own fields. */
function tail(s: TranscriptSession) {
  return {
    userType: 'external',
    entrypoint: 'sdk-cli',
    cwd: s.cwd,
    sessionId: s.session,
    version: '2.1.330',
    gitBranch: 'HEAD',
  }
}

/** The input line that opens a `-p` session (its file appears with it). */
export function enqueueLine(s: TranscriptSession, prompt: string): string {
  return JSON.stringify({
    type: 'queue-operation',
    operation: 'enqueue',
    timestamp: new Date().toISOString(),
    sessionId: s.session,
    content: prompt,
  })
}

/**
 * A hook's `additionalContext`, as Claude Code puts it into the conversation: an attachment of kind
 * hook_additional_context (the model is shown the `rendered` system reminder).
 */
export function hookContextLine(
  s: TranscriptSession,
  hook: { name: string; event: string; toolUseID?: string },
  text: string,
): string {
  return JSON.stringify({
    parentUuid: randomUUID(),
    isSidechain: false,
    attachment: {
      type: 'hook_additional_context',
      content: [text],
      hookName: hook.name,
      toolUseID: hook.toolUseID ?? `hook-${randomUUID()}`,
      hookEvent: hook.event,
    },
    type: 'attachment',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    rendered: [
      { content: `<system-reminder>\n${hook.name} hook additional context: ${text}\n</system-reminder>` },
    ],
    renderedRole: 'system',
    ...tail(s),
  })
}

/** A hook that ran: its output as it printed it (a PostToolUse hook's comes before its context line). */
export function hookSuccessLine(
  s: TranscriptSession,
  hook: { name: string; event: string; toolUseID?: string },
  stdout: string,
): string {
  return JSON.stringify({
    parentUuid: randomUUID(),
    isSidechain: false,
    attachment: {
      type: 'hook_success',
      hookName: hook.name,
      toolUseID: hook.toolUseID ?? randomUUID(),
      hookEvent: hook.event,
      content: '',
      stdout,
      stderr: '',
      exitCode: 0,
      command: 'curl',
      durationMs: 150,
    },
    type: 'attachment',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    ...tail(s),
  })
}

/** Appends lines to a transcript file, making its folder as Claude Code does. */
export function appendLines(file: string, ...lines: string[]): void {
  mkdirSync(join(file, '..'), { recursive: true })
  appendFileSync(file, lines.map((l) => `${l}\n`).join(''))
}
