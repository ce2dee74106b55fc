// `/run <routine> [text]` in a chat (issue 25): an operator fires a routine from their phone, the run's
// session (the scripted fake CLI) gets the text as its event, and the run's end, with the session's
// answer, comes back to the chat that asked. Others may not; nor may an operator fire a routine whose
// tools run without asking: that is the admin token's.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { FakePlatform } from '../fakes/chat-platform.js'
import {
  type BridgedHub,
  botMessages,
  pair,
  person,
  startBridgedHub,
  stopBridgedHub,
} from '../helpers/bridge-world.js'
import { type FakeClaude, fakeClaude } from '../helpers/fake-claude.js'

let world: BridgedHub
let claude: FakeClaude

beforeEach(async () => {
  world = await startBridgedHub('telegram', ({ home }) => {
    claude = fakeClaude(home.dir, { turns: [{ steps: [{ say: 'triaged 3 issues' }] }] })
    home.extraEnv.CLAUDE_CODE_PATH = claude.env.CLAUDE_CODE_PATH as string
    home.extraEnv.FAKE_CLAUDE_SCRIPT = claude.env.FAKE_CLAUDE_SCRIPT as string
    home.extraEnv.SWITCHBOARD_SESSION_ENV = 'FAKE_CLAUDE_SCRIPT'
  })
})

afterEach(async () => {
  await stopBridgedHub(world)
})

async function addRoutine(name: string, action: Record<string, unknown> = {}, ...flags: string[]) {
  const file = join(world.home.dir, `${name}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      name,
      trigger: { kind: 'manual' },
      action: { kind: 'start', folder: world.home.dir, prompt: 'Triage what the operator asks.', ...action },
    }),
  )
  await world.home.cli('routine', 'add', file, ...flags)
}

/** The bot's next message in the chat after `count` of them, once it is there. */
async function nextFromBot(fake: FakePlatform, chat: string, count: number, what: string) {
  return fake.waitFor(() => botMessages(fake, chat)[count], what, 20_000)
}

it('fires a routine from the chat and tells that chat the run’s end with the session’s answer', async () => {
  const { fake, home } = world
  await addRoutine('triage')
  const olga = person('telegram', 2, 'olga')
  const chat = await pair(home, fake, olga, true)

  let seen = botMessages(fake, chat).length
  await fake.dm(olga, '/run')
  expect((await nextFromBot(fake, chat, seen++, 'the list')).text).toBe(
    '[switchboard] Routines: triage. /run <routine> [text] fires one.',
  )
  await fake.dm(olga, '/run triage the issues labelled bug')
  const fired = await nextFromBot(fake, chat, seen++, 'the fired run')
  const run = /run (run_\w+) is/.exec(fired.text)?.[1]
  expect(fired.text).toMatch(
    /^\[switchboard\] Fired triage: run run_\w+ is (pending|starting|running); its end is told here\.$/,
  )
  // The chat the run came from is told its end with the session's answer; olga, an operator, is also
  // told its start and end as every operator who did not turn them off is.
  const after = (text: string) =>
    fake.waitFor(
      () =>
        botMessages(fake, chat)
          .slice(seen)
          .find((m) => m.text.includes(text)),
      text,
      20_000,
    )
  await after(`run ${run} of routine triage started`)
  await after(`run ${run} of routine triage done, $0.01`)
  await after(`routine triage: run ${run} done: triaged 3 issues`)
  // The session was given the text, as the event's untrusted content.
  expect(JSON.stringify(claude.got().find((l) => l.type === 'user'))).toContain('the issues labelled bug')
})

it('lets only operators fire routines, and only the admin token fire one whose tools run unasked', async () => {
  const { fake, home } = world
  await addRoutine('yolo', { permissionMode: 'bypassPermissions' }, '--allow-pre-approval')
  const olga = person('telegram', 2, 'olga')
  const bob = person('telegram', 3, 'bob')
  const olgaChat = await pair(home, fake, olga, true)
  const bobChat = await pair(home, fake, bob)

  let bobSeen = botMessages(fake, bobChat).length
  await fake.dm(bob, '/run yolo')
  expect((await nextFromBot(fake, bobChat, bobSeen++, 'the refusal')).text).toBe(
    '[switchboard] /run is for operators.',
  )
  let seen = botMessages(fake, olgaChat).length
  await fake.dm(olga, '/run yolo')
  expect((await nextFromBot(fake, olgaChat, seen++, 'the refusal')).text).toBe(
    '[switchboard] Could not fire yolo: routine yolo starts sessions whose tools run without asking: only the admin token fires or replays it',
  )
  await fake.dm(olga, '/run nothing-here')
  expect((await nextFromBot(fake, olgaChat, seen++, 'no such routine')).text).toBe(
    '[switchboard] Could not fire nothing-here: no routine named "nothing-here"',
  )
  expect(claude.runs()).toEqual([])
  expect(await home.cli('routine', 'runs', 'yolo')).not.toContain('run_')
})
