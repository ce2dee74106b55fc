// What the plugin or the hooks start inside a Claude Code process the hub drives (SWITCHBOARD_DRIVEN=1,
// set by the hub): a `switchboard channel` that never subscribes, a `switchboard hook` that takes
// nothing. A person's session in the same folder keeps its events.
import { execFile } from 'node:child_process'
import { expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { CLI } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'

const world = homePerTest()
const DRIVEN = { SWITCHBOARD_DRIVEN: '1' }

it('starts no subscriber for a driven session, and its hook leaves a person’s events where they are', async () => {
  const mine = await ChannelClient.start(world.home, ['--name', 'proj'])
  await mine.close()
  const secret = await world.home.addSource('ci')
  const posted = await fetch(`${world.home.url}/hooks/ci`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: 'main is red',
  })
  expect(posted.status).toBe(202)
  expect(await world.home.pending('proj')).toBe(1)

  const driven = await ChannelClient.start(world.home, ['--name', 'proj'], DRIVEN)
  world.opened.push(driven)
  // Nothing to offer: no tools, no channel.
  expect(driven.capabilities()).toEqual({})

  const hook = execFile(process.execPath, [CLI, 'hook'], {
    env: { ...world.home.env, ...DRIVEN, SWITCHBOARD_CHANNEL_NAME: 'proj' },
  })
  hook.stdin?.end(JSON.stringify({ hook_event_name: 'UserPromptSubmit', cwd: '/tmp/proj' }))
  let printed = ''
  hook.stdout?.on('data', (chunk) => {
    printed += String(chunk)
  })
  const code = await new Promise((resolve) => hook.once('exit', resolve))
  expect(code).toBe(0)
  expect(printed).toBe('')

  expect(await world.home.subscribers()).toEqual(['proj'])
  expect(await world.home.pending('proj')).toBe(1)
  expect(driven.events).toEqual([])
})
