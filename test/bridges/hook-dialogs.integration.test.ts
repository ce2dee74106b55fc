// A terminal session's question and plan on the phone (the fake Telegram, the real grammy inside the
// hub): every question of a call answered in turn with buttons, or all at once by typing `answer`,
// and the plan itself shown; the hook that waits gets what Claude Code needs from the answers.
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { botMessages, pair, person, startBridgedHub, stopBridgedHub } from '../helpers/bridge-world.js'
import { postHook } from '../helpers/claude-hook.js'
import { type TestHome, waitFor } from '../helpers/home.js'
import { TWO_QUESTIONS } from '../helpers/questions.js'
import { SseReader } from '../helpers/sse.js'

let fake: FakePlatform
let home: TestHome
let hub: ChildProcess
let project: string
const olga = person('telegram', 2, 'olga')

beforeEach(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'hooked-shop-')))
  ;({ fake, home, hub } = await startBridgedHub('telegram'))
})

afterEach(async () => {
  await stopBridgedHub({ fake, home, hub })
  rmSync(project, { recursive: true, force: true })
})

/** A hook event as the installed hooks send it; resolves with the hook's output. */
async function hook(event: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = {
    session_id: '5f0c1a2e-0000-4000-8000-0000000000b2',
    transcript_path: '/tmp/y.jsonl',
    cwd: project,
    hook_event_name: event,
    ...extra,
  }
  return (await postHook(home, event, body)).json
}

/** A PermissionRequest as the installed hook sends it; resolves with the hook's output. */
async function dialog(tool: string, toolInput: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = {
    session_id: '5f0c1a2e-0000-4000-8000-0000000000b1',
    transcript_path: '/tmp/x.jsonl',
    cwd: project,
    hook_event_name: 'PermissionRequest',
    tool_name: tool,
    tool_input: toolInput,
  }
  return (await postHook(home, 'PermissionRequest', body, { timeout: 330 })).json
}

const { questions } = TWO_QUESTIONS

const allowedWith = (updatedInput: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput } },
})

it('asks each question of a call in turn with buttons, and answers the hook with all of them at the last press', async () => {
  const chat = await pair(home, fake, olga, true)
  const answered = dialog('AskUserQuestion', { questions })
  const prompt = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Which colour?')),
    'the question',
  )
  expect(prompt.text).toContain('Which size?')
  expect(prompt.buttons.flat().map((b) => b.text)).toEqual(['red', 'blue', 'Dismiss'])
  const blue = prompt.buttons.flat().find((b) => b.text === 'blue')
  await fake.press(olga, chat, prompt.messageId, blue?.data as string)
  const next = await fake.waitFor(
    () =>
      fake
        .sent()
        .find((m) => m.messageId === prompt.messageId && m.buttons.flat().some((b) => b.text === 'large')),
    'the second question',
  )
  expect(next.text).toContain('Which colour? → blue')
  const large = next.buttons.flat().find((b) => b.text === 'large')
  await fake.press(olga, chat, prompt.messageId, large?.data as string)
  expect(await answered).toEqual(
    allowedWith({ questions, answers: { 'Which colour?': 'blue', 'Which size?': 'large' } }),
  )
  const edited = await fake.waitFor(
    () => fake.sent().find((m) => m.messageId === prompt.messageId && m.text.includes('Answered')),
    'the prompt edited',
  )
  expect(edited.text).toContain('"blue, large"')
  expect(edited.buttons).toEqual([])
})

it('takes every answer of a call typed at once, words of one’s own in quotes', async () => {
  const chat = await pair(home, fake, olga, true)
  const answered = dialog('AskUserQuestion', { questions })
  const prompt = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Which colour?')),
    'the question',
  )
  const code = /\(id ([a-km-z]{5})/.exec(prompt.text)?.[1] as string
  await fake.dm(olga, `answer ${code} 1`)
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('give one answer each')),
    'why one answer is not enough',
  )
  await fake.dm(olga, `answer ${code} 2 "the one in the window"`)
  expect(await answered).toEqual(
    allowedWith({ questions, answers: { 'Which colour?': 'blue', 'Which size?': 'the one in the window' } }),
  )
  await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.startsWith('✅ Answered "blue, the one in the window"')),
    'the answer confirmed',
  )
})

it('shows the plan a terminal session asks to approve, and Approve sends its input back', async () => {
  const chat = await pair(home, fake, olga, true)
  const input = { plan: '# Ship the shop\n\n1. add the cart\n2. ship', planFilePath: '/h/.claude/plans/p.md' }
  const approved = dialog('ExitPlanMode', input)
  const prompt = await fake.waitFor(
    () => botMessages(fake, chat).find((m) => m.text.includes('Plan review')),
    'the plan',
  )
  expect(prompt.text).toContain('1. add the cart\n2. ship')
  const approve = prompt.buttons.flat().find((b) => b.text === 'Approve')
  await fake.press(olga, chat, prompt.messageId, approve?.data as string)
  expect(await approved).toEqual(allowedWith(input))
})

it('sends each operator only the notices they chose, with /notices in the chat or switchboard notices', async () => {
  const chat = await pair(home, fake, olga, true)
  const laptop = await SseReader.open(home.url, await home.addSender('laptop', true))
  const said = (text: string) => botMessages(fake, chat).find((m) => m.text.includes(text))
  await fake.dm(olga, '/notices')
  await fake.waitFor(
    () =>
      said(
        'You get notices when Claude waits for you, when Claude finishes a turn, when a routine starts a run, when a routine’s run ends and when a project reaches a share of its daily budget here. /notices waiting finished run-started run-ended budget | all | off changes it.',
      ),
    'the choice',
  )
  await fake.dm(olga, '/notices waiting')
  await fake.waitFor(() => said('You get notices when Claude waits for you here now'), 'the new choice')
  await fake.dm(olga, '/notices later')
  await fake.waitFor(
    () =>
      said('say which notices: waiting, finished, run-started, run-ended, budget, all or off (not "later")'),
    'why not',
  )

  await hook('Stop', { stop_hook_active: false, last_assistant_message: 'All 12 tests pass.' })
  // The laptop chose nothing: it gets both kinds; olga's phone only waits.
  await waitFor(() => laptop.messages.some((m) => m.event === 'notice'), 10_000, 'the laptop’s notice')
  await hook('Notification', {
    message: 'Claude needs your permission',
    notification_type: 'permission_prompt',
  })
  await fake.waitFor(() => said('Claude is waiting for you'), 'the wait on the phone')
  expect(said('finished its turn')).toBeUndefined()

  expect(await home.cli('notices', `telegram:${olga.id}`, 'off')).toBe(
    `telegram:${olga.id} gets no notices of sessions or routine runs\n`,
  )
  expect(await home.cli('notices', 'laptop', 'finished')).toBe(
    'laptop gets notices when Claude finishes a turn\n',
  )
  await hook('Notification', {
    message: 'Claude is waiting for your input',
    notification_type: 'permission_prompt',
  })
  await hook('Stop', { stop_hook_active: false, last_assistant_message: 'Done again.' })
  await waitFor(
    () => laptop.messages.filter((m) => m.event === 'notice').length === 3,
    10_000,
    'the laptop’s second finished notice (and not the second wait)',
  )
  expect(
    laptop.messages.filter((m) => m.event === 'notice').map((m) => (m.data as { kind: string }).kind),
  ).toEqual(['finished', 'waiting', 'finished'])
  expect(botMessages(fake, chat).filter((m) => m.text.includes('Claude is waiting for you'))).toHaveLength(1)
  laptop.close()
})
