// The scripted stand-in for Claude Code (test/fakes/fake-claude.mjs) as a test sets it up: the
// script it follows, the environment that makes the hub start it, and what it was started with and
// read, from its log.
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const FAKE_CLAUDE = resolve(import.meta.dirname, '../fakes/fake-claude.mjs')

export type FakeStep =
  | { say: string }
  | { partial: string[] }
  | { ask: { tool: string; input: Record<string, unknown>; description?: string } }
  | { hold: true }
  | { stderr: string }
  | { exit: number }
  | { kill: NodeJS.Signals }
  | { raw: string }
  /** A file written in its working folder, as a session's edit leaves one. */
  | { write: { file: string; text: string } }
  /** The turn's result, at this point, with these fields (later steps run after the turn). */
  | { result: Record<string, unknown> }

export interface FakeScript {
  /** The first turn whose `when` the prompt contains plays; else the one without `when`; else "ok". */
  /** `run`: only in that process of the test (1 for the first); `init: false`: it begins no session. */
  turns?: { when?: string; run?: number; init?: false; steps: FakeStep[] }[]
  sessionId?: string
  /** What it answers to mcp_set_servers (by default: every server added, no errors). */
  mcpSetServers?: Record<string, unknown>
  /** Control subtypes it never answers. */
  silent?: string[]
  /** Prints this and exits 1 at once, before reading anything (a CLI refusing its flags). */
  refuse?: string
}

export type Received = { argv: string[] } | { got: { type: string; [key: string]: unknown } }

export interface FakeClaude {
  /** The environment of the CLIs the hub starts: this fake (CLAUDE_CODE_PATH) and its script. */
  env: NodeJS.ProcessEnv
  /** The argument lists it was started with, one per process, in order. */
  runs(): string[][]
  /** Every line it read, from every process, in order. */
  got(): { type: string; [key: string]: unknown }[]
}

/** `dir`: a folder of the test's own, where the fake keeps its log. */
export function fakeClaude(dir: string, script: FakeScript): FakeClaude {
  chmodSync(FAKE_CLAUDE, 0o755)
  const logFile = join(dir, 'fake-claude.log')
  const received = (): Received[] =>
    existsSync(logFile)
      ? readFileSync(logFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Received)
      : []
  return {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      CLAUDE_CODE_PATH: FAKE_CLAUDE,
      FAKE_CLAUDE_SCRIPT: JSON.stringify({ ...script, log: logFile }),
    },
    runs: () => received().flatMap((r) => ('argv' in r ? [r.argv] : [])),
    got: () => received().flatMap((r) => ('got' in r ? [r.got] : [])),
  }
}
