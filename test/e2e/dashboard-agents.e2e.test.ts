// A session of another agent driven from the dashboard in Debian's Chromium (issue 35): picked in
// the New session form and started, its command prompt approved in the Inbox (the command ran, the
// model had its output), prompted again from its page, interrupted during a slow stream, stopped at
// the terminal and resumed by the page's next message (the model is shown every earlier turn); every
// surface on the way names the agent. The steps are the same for every agent; what differs (its fake
// model API, the hub's environment, its HOME) is one row of AGENTS_UNDER_TEST. Each fake is scripted
// alike: a prompt `RUN:<cmd>` asks to run the command and, given its output, ends with `DONE: …`;
// `SLOW` streams a long answer a word at a time; anything else is answered "nothing to do".
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AGENT_LABELS, type DrivenAgent, speakerOf } from '../../src/core/agents.js'
import {
  FakeGemini,
  type GenerateRequest,
  shellThenDoneOrSlow as geminiScript,
  userTexts as geminiUserTexts,
  lastToolResponse,
} from '../fakes/gemini.js'
import {
  FakeOpenAI,
  lastToolOutput,
  type ResponsesRequest,
  shellThenDoneOrSlow,
  userTexts,
} from '../fakes/openai.js'
import { launchChromium } from '../helpers/chromium.js'
import { CodexHome } from '../helpers/codex.js'
import { GEMINI_BIN, GeminiHome } from '../helpers/gemini.js'
import { CLI, runCli, TestHome, waitFor } from '../helpers/home.js'

/** One agent's fake model and home, as the steps need them. */
interface Rig {
  /** The hub's environment beside its home: the agent's CLI offline against the fake. */
  env: Record<string, string>
  /** The session's folder. */
  cwd: string
  /** How many requests the model has had. */
  requests(): number
  /** The user texts the model was shown in its latest request, in order. */
  userTexts(): string[]
  /** What the latest tool gave back, when the model's latest request carries it. */
  toolOutput(): string | null
  /**
   * Whether the agent keeps a prompt whose turn was interrupted in the history it loads (Gemini CLI
   * rewinds its record past it, so a resumed session's model is not shown it).
   */
  keepsInterrupted: boolean
  close(): Promise<void>
}

/** The agents this runs for; another is one more row. */
const AGENTS_UNDER_TEST: { agent: DrivenAgent; rig: () => Promise<Rig> }[] = [
  {
    agent: 'codex',
    rig: async () => {
      const fake = await new FakeOpenAI().start()
      fake.respond(shellThenDoneOrSlow)
      const codex = new CodexHome(fake.baseUrl)
      const latest = () => fake.requests.at(-1) as ResponsesRequest
      return {
        // The hub passes its sessions only the variables it knows; Codex's key for the fake is one more.
        env: codex.env({ SWITCHBOARD_SESSION_ENV: 'FAKE_OPENAI_KEY' }),
        cwd: codex.cwd,
        requests: () => fake.requests.length,
        userTexts: () => userTexts(latest()),
        toolOutput: () => lastToolOutput(latest()),
        keepsInterrupted: true,
        close: async () => {
          codex.cleanup()
          await fake.close()
        },
      }
    },
  },
  {
    agent: 'gemini',
    rig: async () => {
      const fake = await new FakeGemini().start()
      fake.respond(geminiScript)
      const gemini = new GeminiHome(fake.baseUrl)
      const latest = () => fake.turns.at(-1) as GenerateRequest
      return {
        env: gemini.env({
          GEMINI_PATH: GEMINI_BIN,
          // The fake's key and address are not Gemini's own variables the hub passes by name.
          SWITCHBOARD_SESSION_ENV: 'GEMINI_API_KEY,GOOGLE_GEMINI_BASE_URL',
        }),
        cwd: gemini.cwd,
        requests: () => fake.turns.length,
        userTexts: () => geminiUserTexts(latest()),
        toolOutput: () => lastToolResponse(latest()),
        keepsInterrupted: false,
        close: async () => {
          gemini.cleanup()
          await fake.close()
        },
      }
    },
  },
]

const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots')
let browser: Browser
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** The hub on a fresh home, with the rig's environment; its sign-in link opened in a new page. */
async function hubAndPage(
  rig: Rig,
  closers: (() => unknown)[],
): Promise<{ home: TestHome; env: Record<string, string>; page: Page }> {
  const home = await TestHome.create()
  closers.push(() => home.cleanup())
  const env = { ...rig.env, SWITCHBOARD_HOME: home.dir, SWITCHBOARD_PORT: String(home.port) }
  const hub: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' })
  closers.push(async () => {
    if (hub.exitCode !== null || hub.signalCode !== null) return
    hub.kill('SIGTERM')
    await once(hub, 'exit')
  })
  await home.waitForHub(15_000)
  const printed = (await runCli(['open', '--print'], env)).stdout
  const url = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1]
  expect(url).toBeDefined()
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  closers.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url as string)
  await page.getByRole('link', { name: /Sessions/ }).waitFor()
  return { home, env, page }
}

type View = { id: string; agent: string; status: string; live: boolean; turns: number }

// The agents' rows run side by side, each with its own fake, hub and page: Gemini's resume waits for the
// minute its record started to turn (src/agents/acp/gemini.ts), and the other rows' steps take that
// time instead of following it.
describe.concurrent.each(AGENTS_UNDER_TEST)(
  'a $agent session from the dashboard',
  ({ agent, rig: makeRig }) => {
    const label = AGENT_LABELS[agent]
    const speaker = speakerOf(agent)

    it('is started with the agent picked, approved in the Inbox, prompted, interrupted and resumed', {
      timeout: 300_000,
    }, async ({ expect, onTestFinished }) => {
      // What the test opened, closed after it in the reverse order.
      const closers: (() => unknown)[] = []
      onTestFinished(async () => {
        for (const close of closers.reverse()) await close()
      })
      const rig = await makeRig()
      closers.push(() => rig.close())
      const { home, env, page } = await hubAndPage(rig, closers)
      const view = (id: string) =>
        home.api('session', { params: { id }, query: { wait: 5 } }) as Promise<View>
      const until = async (id: string, done: (v: View) => boolean, what: string) => {
        await waitFor(async () => done(await view(id)), 60_000, what)
      }

      // Started from the form, the agent picked from the ones the hub drives.
      const made = join(rig.cwd, 'made-from-the-page')
      const first = `RUN:touch ${made} && echo made-it`
      await page.getByLabel('Agent').selectOption({ label })
      await expect
        .poll(() => page.getByLabel('Prompt').getAttribute('placeholder'))
        .toBe(`What should ${speaker} do?`)
      await page.getByLabel('Folder').fill(rig.cwd)
      await page.getByLabel('Prompt').fill(first)
      await page.getByRole('button', { name: 'Start session' }).click()
      await page.waitForURL(/#\/sessions\/ses_/)
      const id = /#\/sessions\/(ses_[^/?#]+)/.exec(page.url())?.[1] as string
      expect((await view(id)).agent).toBe(agent)
      // Its page names the agent beside the session's name.
      await page.locator('.session-header h1').getByText(label, { exact: true }).waitFor()

      // Its command prompt, in the Inbox, says whose it is; approved there, the command runs.
      await page.getByRole('link', { name: /Inbox/ }).click()
      const prompt = page.getByRole('article', { name: new RegExp(`^Permission from .*\\(${label}\\)$`) })
      await prompt.getByText(`touch ${made}`).first().waitFor({ timeout: 60_000 })
      await expect.poll(() => prompt.getByText(label, { exact: true }).count()).toBe(1)
      await page.screenshot({ path: join(SHOTS, `inbox-${agent}-desktop.png`), fullPage: true })
      await prompt.getByRole('button', { name: 'Approve' }).click()
      await waitFor(() => existsSync(made), 60_000, 'the approved command to run')
      await until(id, (v) => v.status === 'idle', 'the first turn to end')
      expect(rig.toolOutput()).toContain('made-it')

      // Prompted again from its page: a second turn of the same session.
      await page.goBack()
      await page.waitForURL(new RegExp(`#/sessions/${id}`))
      await page
        .getByText(/DONE: /)
        .first()
        .waitFor({ timeout: 30_000 })
      await page.getByLabel('Message').fill('and now?')
      await page.getByRole('button', { name: 'Send', exact: true }).click()
      // The transcript says the model's words are the agent's.
      // The finished answer, not the item that streams it (which says "· writing…").
      const answer = page.locator('.item.assistant:not(.writing)').filter({ hasText: 'nothing to do' })
      await answer.first().waitFor({ timeout: 60_000 })
      expect(await answer.first().locator('.who').textContent()).toBe(speaker)
      await until(id, (v) => v.status === 'idle' && v.turns === 2, 'the second turn to end')

      // Interrupted from its page while the model streams slowly: the turn ends, the agent runs on.
      const before = rig.requests()
      await page.getByLabel('Message').fill('SLOW')
      await page.getByRole('button', { name: 'Send', exact: true }).click()
      await waitFor(() => rig.requests() > before, 30_000, 'the slow request to reach the model')
      // Its words as they stream, said to be the agent's.
      const writing = page.locator('.item.assistant.writing')
      await writing.getByText(/one two three/).waitFor({ timeout: 30_000 })
      expect(await writing.locator('.who').textContent()).toBe(`${speaker} · writing…`)
      await page.getByRole('button', { name: 'Interrupt' }).click()
      await page.getByRole('status').getByText('Interrupted.').waitFor()
      await until(id, (v) => v.status === 'interrupted', 'the interrupt')
      expect((await view(id)).live).toBe(true)
      await page.locator('.session-header').getByText('interrupted', { exact: true }).waitFor()

      // Stopped at the terminal, which names the agent too; the page's next message resumes it.
      const shown = (await runCli(['sessions', 'show', id], env)).stdout
      expect(shown).toContain(`agent: ${label}`)
      expect((await runCli(['sessions'], env)).stdout).toMatch(new RegExp(`^${id}\\t.*\\t${label}\\t`, 'm'))
      await runCli(['sessions', 'stop', id], env)
      await until(id, (v) => !v.live, 'the session to stop')
      await page.locator('.session-header').getByText('not running').waitFor({ timeout: 15_000 })
      await page.getByLabel('Message').fill('what came before?')
      await page.getByRole('button', { name: 'Send', exact: true }).click()
      await until(id, (v) => v.status === 'idle' && v.turns >= 4, 'the resumed turn to end')
      const asked = [first, 'and now?', ...(rig.keepsInterrupted ? ['SLOW'] : []), 'what came before?']
      expect(rig.userTexts().filter((text) => asked.includes(text))).toEqual(asked)
      await page.screenshot({ path: join(SHOTS, `session-${agent}-desktop.png`), fullPage: true })

      // The sessions list names the agent beside the session.
      await page.getByRole('link', { name: /Sessions/ }).click()
      const row = page.getByRole('row').filter({ has: page.getByText(id) })
      await row.getByText(label, { exact: true }).waitFor()

      await runCli(['sessions', 'stop', id], env)
      await until(id, (v) => !v.live, 'the session to stop again')
    })
  },
)
