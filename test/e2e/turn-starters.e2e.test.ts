// A turn a channel's notification started is not the person at the terminal, with the real Claude Code
// CLI (-p, the plugin's channel, and the hooks `switchboard install claude --hooks` wrote): the person
// types, and their turn's end stays off the phone (they are there); then a webhook's event starts a
// turn by itself, and its end is told to the operator, saying a webhook started it. Beside the
// installed hooks, a command hook records what Claude Code hands UserPromptSubmit and Stop, which is
// all the hub has to tell the two turns apart: the channel's turn comes as the tag Claude Code wrote,
// with no `source`, and a turn's hooks share its prompt_id.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { PrintSession } from '../helpers/claude.js'
import { drivingEnv, e2eWorld, startDrivingHub, waitForChannel } from '../helpers/e2e.js'
import { CLI, waitFor } from '../helpers/home.js'
import { PLUGIN_CHANNEL } from '../helpers/plugin.js'
import { SseReader } from '../helpers/sse.js'

const world = e2eWorld({ channelPlugin: 'switchboard' })

type Hooks = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>

/** Adds a command hook to `events` in the HOME's settings that appends each input, one JSON a line, to `file`. */
function recordHooks(events: string[], file: string): void {
  const settings = join(world.claude.home, '.claude', 'settings.json')
  const current = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Hooks }
  for (const event of events)
    current.hooks[event] = [
      ...(current.hooks[event] ?? []),
      { hooks: [{ type: 'command', command: `(cat; echo) >> ${file}` }] },
    ]
  writeFileSync(settings, JSON.stringify(current))
}

it('tells operators the end of a turn a webhook started, though the session’s person typed a moment before', {
  timeout: 180_000,
}, async () => {
  await startDrivingHub(world)
  execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env: drivingEnv(world) })
  const recorded = join(world.claude.home, 'hook-inputs.jsonl')
  recordHooks(['UserPromptSubmit', 'Stop'], recorded)
  const operator = await SseReader.open(world.home.url, await world.home.addSender('phone', true))
  world.closers.push(() => operator.close())
  const secret = await world.home.addSource('ci')

  // The person's session (not one the hub drives), with the channel; they type until it is wired.
  const { SWITCHBOARD_DRIVEN: _, ...env } = drivingEnv(world)
  const session = new PrintSession(PLUGIN_CHANNEL, { cwd: world.claude.cwd, env, timeoutSeconds: 170 })
  world.closers.push(() => session.close())
  await waitForChannel(world)
  await session.waitForMcpServer()
  world.fake.respond(() => ({ text: 'ready' }))
  await session.sendUntilChannelWired('get ready')

  // A webhook's event: nobody types, yet a turn starts, a moment after the person did.
  world.fake.respond(() => ({ text: 'the build is green again' }))
  const res = await fetch(`${world.home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'build 77 failed',
  })
  expect(res.status).toBe(202)
  const { id } = (await res.json()) as { id: string }
  await session.waitForTurns(1)
  const finished = () =>
    operator.messages
      .filter((m) => m.event === 'notice')
      .map((m) => m.data as Record<string, unknown>)
      .filter((n) => n.kind === 'finished')
  await waitFor(() => finished().length > 0, 30_000, 'the webhook’s turn’s end told')

  // Only the webhook's turn: the person's own turns ended while they were there.
  expect(finished()).toEqual([
    expect.objectContaining({
      started_by: { kind: 'webhook', source: 'ci', event: id },
      text: expect.stringMatching(
        /: Claude finished the turn a webhook from ci started\n\nthe build is green again$/,
      ),
    }),
  ])

  // What Claude Code handed the hooks: the channel's turn as its tag, no source; one prompt_id a turn.
  await waitFor(() => existsSync(recorded), 10_000, 'the recorded hook inputs')
  const inputs = readFileSync(recorded, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  const prompts = inputs.filter((i) => i.hook_event_name === 'UserPromptSubmit')
  const channel = prompts.find((p) => String(p.prompt).includes('build 77 failed'))
  expect(String(channel?.prompt)).toMatch(
    new RegExp(
      `^<channel source="plugin:switchboard:switchboard"[^>]* event_id="${id}"[^>]*>\\nbuild 77 failed\\n</channel>$`,
    ),
  )
  expect(channel).not.toHaveProperty('source')
  expect(prompts.find((p) => p.prompt === 'get ready')).not.toHaveProperty('source')
  const stop = inputs.find(
    (i) => i.hook_event_name === 'Stop' && i.last_assistant_message === 'the build is green again',
  )
  expect(stop?.prompt_id).toBe(channel?.prompt_id)
  expect(typeof channel?.prompt_id).toBe('string')
})
