// bench/session/agents: bench/session's figure for every agent the hub drives — from "create a
// session" to its first assistant line through the hub (HTTP API, stored stream, SSE) — beside the
// same agent's adapter run bare in this process (its CLI spawned, its protocol spoken, no hub), in
// one run, alternating. Each agent's real CLI runs offline against its fake model API; Claude Code's
// rows are the baseline the others are read against.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startAgent } from '../../src/agents/start.js'
import type { DrivenAgent } from '../../src/core/agents.js'
import { FakeAnthropic } from '../../test/fakes/anthropic.js'
import { FakeChatCompletions } from '../../test/fakes/chat-completions.js'
import { FakeGemini } from '../../test/fakes/gemini.js'
import { FakeOpenAI } from '../../test/fakes/openai.js'
import { CLAUDE_BIN, ClaudeHome } from '../../test/helpers/claude.js'
import { CodexHome } from '../../test/helpers/codex.js'
import { GEMINI_BIN, GeminiHome } from '../../test/helpers/gemini.js'
import { CLI, TestHome } from '../../test/helpers/home.js'
import { OFFLINE_ENV, OpenCodeHome } from '../../test/helpers/opencode.js'
import { fmt, summarize } from '../stats.js'

const RUNS = Number(process.env.BENCH_SESSION_RUNS ?? 12)

/** An agent as the bench runs it: the environment its CLI needs (fake model, throwaway home). */
interface Profile {
  agent: DrivenAgent
  label: string
  cwd: string
  env: Record<string, string>
  close(): Promise<void>
}

async function claudeProfile(): Promise<Profile> {
  const fake = await new FakeAnthropic().start()
  fake.respond(() => ({ text: 'first words' }))
  const claude = new ClaudeHome()
  return {
    agent: 'claude',
    label: 'Claude Code',
    cwd: claude.cwd,
    env: { ...claude.env(fake.url), CLAUDE_CODE_PATH: CLAUDE_BIN },
    async close() {
      claude.cleanup()
      await fake.close()
    },
  }
}

async function codexProfile(): Promise<Profile> {
  const fake = await new FakeOpenAI().start()
  fake.respond(() => ({ text: 'first words' }))
  const codex = new CodexHome(fake.baseUrl)
  return {
    agent: 'codex',
    label: 'Codex 0.171.0 (app-server)',
    cwd: codex.cwd,
    env: codex.env({ SWITCHBOARD_SESSION_ENV: 'FAKE_OPENAI_KEY' }),
    async close() {
      codex.cleanup()
      await fake.close()
    },
  }
}

async function geminiProfile(): Promise<Profile> {
  const fake = await new FakeGemini().start()
  fake.respond(() => ({ text: 'first words' }))
  const gemini = new GeminiHome(fake.baseUrl)
  return {
    agent: 'gemini',
    label: 'Gemini CLI 0.61.0 (ACP)',
    cwd: gemini.cwd,
    env: gemini.env({
      GEMINI_PATH: GEMINI_BIN,
      SWITCHBOARD_SESSION_ENV: 'GEMINI_API_KEY,GOOGLE_GEMINI_BASE_URL',
    }),
    async close() {
      gemini.cleanup()
      await fake.close()
    },
  }
}

async function opencodeProfile(): Promise<Profile> {
  const fake = await new FakeChatCompletions().start()
  fake.respond(() => ({ text: 'first words' }))
  const opencode = new OpenCodeHome(fake.baseUrl)
  return {
    agent: 'opencode',
    label: 'OpenCode 1.18.33 (ACP)',
    cwd: opencode.cwd,
    env: opencode.env({ SWITCHBOARD_SESSION_ENV: Object.keys(OFFLINE_ENV).join(',') }),
    async close() {
      opencode.cleanup()
      await fake.close()
    },
  }
}

/** The adapter alone: spawn, send the prompt, until its first assistant line. */
async function bare(p: Profile): Promise<number> {
  const t0 = performance.now()
  const agent = startAgent(
    p.agent,
    { cwd: p.cwd },
    { canUseTool: async () => ({ behavior: 'deny', message: 'not in this bench' }) },
    { env: p.env, ...(p.agent === 'claude' ? { bin: CLAUDE_BIN } : {}) },
  )
  const first = new Promise<void>((resolve) =>
    agent.on('line', (line) => {
      if (line.type === 'assistant') resolve()
    }),
  )
  await agent.sendUser('hello')
  await first
  const ms = performance.now() - t0
  await agent.stop()
  return ms
}

/** Through a hub: POST /sessions with the agent, then its SSE stream until the first assistant line. */
async function throughHub(url: string, headers: Record<string, string>, p: Profile): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(`${url}/api/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: 'hello', agent: p.agent, options: { cwd: p.cwd } }),
  })
  if (!res.ok) throw new Error(`POST /api/sessions: ${res.status} ${await res.text()}`)
  const { id } = (await res.json()) as { id: string }
  const controller = new AbortController()
  const stream = await fetch(`${url}/api/sessions/${id}/stream`, { headers, signal: controller.signal })
  if (!stream.ok) throw new Error(`GET /api/sessions/${id}/stream: ${stream.status}`)
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of stream.body as ReadableStream<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    if (buffer.includes('data: {"type":"assistant"')) break
  }
  const ms = performance.now() - t0
  controller.abort()
  await fetch(`${url}/api/sessions/${id}/stop`, { method: 'POST', headers })
  return ms
}

const rows: string[] = []
let baseline: number | null = null
for (const make of [claudeProfile, codexProfile, geminiProfile, opencodeProfile]) {
  const profile = await make()
  const home = await TestHome.create()
  const hub: ChildProcess = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...profile.env, SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) },
    stdio: 'ignore',
  })
  try {
    await home.waitForHub(15_000)
    const token = readFileSync(join(home.dir, 'admin-token'), 'utf8').trim()
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    await bare(profile) // warm the CLI's files into the page cache
    await throughHub(home.url, headers, profile)
    const bareMs: number[] = []
    const hubMs: number[] = []
    for (let i = 0; i < RUNS; i++) {
      bareMs.push(await bare(profile))
      hubMs.push(await throughHub(home.url, headers, profile))
    }
    const b = summarize(bareMs)
    const h = summarize(hubMs)
    baseline ??= h.p50
    rows.push(
      profile.label,
      `  bare adapter      p50 ${fmt(b.p50, 1).padStart(7)} ms  p99 ${fmt(b.p99, 1).padStart(7)} ms`,
      `  through the hub   p50 ${fmt(h.p50, 1).padStart(7)} ms  p99 ${fmt(h.p99, 1).padStart(7)} ms` +
        `  hub/bare ${fmt(h.p50 / b.p50, 2)}x  vs Claude Code through the hub ${fmt(h.p50 / baseline, 2)}x`,
    )
  } finally {
    hub.kill('SIGTERM')
    await once(hub, 'exit')
    await home.cleanup()
    await profile.close()
  }
}
console.log(`bench/session/agents — create → first assistant line, ${RUNS} runs each, alternating`)
for (const row of rows) console.log(row)
