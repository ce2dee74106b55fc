import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pino } from 'pino'
import { expect, it } from 'vitest'
import { ensureHome, loadConfig } from '../src/core/config.js'
import { HubUnwanted, startHub } from '../src/hub/server.js'
import { openStore } from '../src/store/open.js'
import { ChannelClient } from './helpers/channel-client.js'
import { alive, CLI, hubsOf, runCli, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { TmuxSession } from './helpers/tmux.js'

const world = homePerTest()

async function cli(...args: string[]) {
  return cliWith({}, ...args)
}

function cliWith(env: Record<string, string>, ...args: string[]) {
  return runCli(args, { ...world.home.env, ...env })
}

const answers = async () => (await fetch(`${world.home.url}/health`).catch(() => null))?.ok === true

it('stop ends the hub; a connected channel waits without starting it, and start brings it back', async () => {
  const channel = await ChannelClient.start(world.home, ['--name', 'web'])
  world.opened.push(channel)
  await world.home.waitForHub()
  const pid = world.home.hubPid() as number

  const stopped = await cli('stop')
  expect(stopped.code).toBe(0)
  expect(stopped.stdout).toBe(
    `hub: stopped (pid ${pid}); 1 channel (web) wait for it and will not start it; start it again: switchboard start (or switchboard serve)\n`,
  )
  expect(alive(pid)).toBe(false)
  // The channel finds no hub and says once, on stderr, that it waits for one.
  await waitFor(
    () => channel.stderr.join('').includes('was stopped with switchboard stop'),
    10_000,
    'the channel to say it waits',
  )
  expect(channel.stderr.join('').match(/was stopped with switchboard stop/g)).toHaveLength(1)
  expect(await answers()).toBe(false)

  const status = await cli('status')
  expect(status.code).toBe(1)
  expect(status.stdout).toMatch(/^hub: stopped with switchboard stop .*start it again: switchboard start/)
  // A command that needs the hub says it is stopped instead of starting it.
  const peers = await cli('peers')
  expect(peers.code).toBe(2)
  expect(peers.stderr).toBe(
    `switchboard: the hub of ${world.home.dir} was stopped with switchboard stop; start it again: switchboard start (or switchboard serve)\n`,
  )
  expect(await answers()).toBe(false)
  // Stopping again is no error.
  const again = await cli('stop', '--json')
  expect(again.code).toBe(0)
  expect(JSON.parse(again.stdout)).toEqual({ home: world.home.dir, stopped: null, channels: [] })

  const started = await cli('start')
  expect(started.code).toBe(0)
  expect(started.stdout).toContain(`the hub runs (pid ${world.home.hubPid()}) on ${world.home.url}`)
  expect(started.stdout).toContain('switchboard open')
  // The channel was waiting: it is connected again.
  await waitFor(
    async () => (await cli('status')).stdout.includes('connected: web'),
    10_000,
    'the channel to connect again',
  )

  // A hub that dies (not stopped on purpose) is started again by the channel, as before.
  await world.home.stopHub('SIGKILL')
  await world.home.waitForHub(15_000)
})

/** `switchboard serve` in a terminal of its own, as `npm start` runs it; the shell stays after it. */
function serveAtTerminal(): TmuxSession {
  const user = mkdtempSync(join(tmpdir(), 'switchboard-user-'))
  const serve = `trap : INT; "${process.execPath}" "${CLI}" serve; echo "exit $?"; sleep 60`
  const tmux = new TmuxSession(['sh', '-c', serve], {
    cwd: user,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: user,
      TERM: 'xterm-256color',
      SWITCHBOARD_HOME: world.home.dir,
      SWITCHBOARD_PORT: String(world.home.port),
    },
  })
  world.opened.push({
    close: async () => {
      await tmux.kill()
      rmSync(user, { recursive: true, force: true })
    },
  })
  return tmux
}

for (const [how, stop] of [
  ['Ctrl-C', (tmux: TmuxSession) => tmux.keys('C-c')],
  ['SIGTERM', () => process.kill(world.home.hubPid() as number, 'SIGTERM')],
] as const)
  it(`a hub at a terminal stopped with ${how} is stopped on purpose: a connected channel waits instead of starting another, and serve brings it back`, {
    timeout: 60_000,
  }, async () => {
    const tmux = serveAtTerminal()
    await tmux.waitForScreen(/Stop it: Ctrl-C here/)
    const pid = world.home.hubPid() as number
    const channel = await ChannelClient.start(world.home, ['--name', 'web'])
    world.opened.push(channel)

    stop(tmux)
    await tmux.waitForScreen(/hub stopped\s+exit 0/)
    expect(alive(pid)).toBe(false)
    // The channel saw the hub go and says once that it waits, rather than starting one of its own.
    const waits = () => /was stopped .*waiting for it/.test(channel.stderr.join(''))
    await waitFor(
      () => waits() || hubsOf(world.home.dir).length > 0,
      10_000,
      `the channel to say it waits\n${channel.stderr.join('')}`,
    )
    expect(hubsOf(world.home.dir)).toEqual([])
    expect(waits()).toBe(true)
    expect(channel.stderr.join('').match(/was stopped .*waiting for it/g)).toHaveLength(1)
    expect(hubsOf(world.home.dir)).toEqual([])
    expect(await answers()).toBe(false)
    const status = await cli('status')
    expect(status.code).toBe(1)
    expect(status.stdout).toMatch(/^hub: stopped .*at its terminal.*start it again: switchboard start/)

    // `serve` again takes the marker away, and the channel that waited is connected to it.
    const again = spawn(process.execPath, [CLI, 'serve', '--log-json'], {
      env: world.home.env,
      stdio: 'ignore',
    })
    world.opened.push({ close: () => again.kill() })
    await world.home.waitForHub()
    expect(existsSync(join(world.home.dir, 'hub.stopped'))).toBe(false)
    await waitFor(
      async () => (await cli('status')).stdout.includes('connected: web'),
      10_000,
      'the channel to connect again',
    )
  })

it('counts only channels among what waits for a stopped hub, not a routine’s queue of events', async () => {
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  world.opened.push({ close: () => hub.kill() })
  await world.home.waitForHub()
  const routine = join(world.home.dir, 'triage.json')
  writeFileSync(
    routine,
    JSON.stringify({
      name: 'triage',
      trigger: { kind: 'events', topics: ['ci'] },
      action: { kind: 'start', folder: world.home.dir, prompt: 'look' },
    }),
  )
  expect((await cli('routine', 'add', routine)).code).toBe(0)
  await waitFor(
    async () => (await cli('status')).stdout.includes('connected: routine:triage'),
    10_000,
    'the routine to take its events',
  )
  const stopped = await cli('stop')
  expect(stopped.stdout).toBe(
    `hub: stopped (pid ${hub.pid}); start it again: switchboard start (or switchboard serve)\n`,
  )
})

it('status and stop make no home where there is none', async () => {
  const nowhere = join(world.home.dir, 'not-made')
  const status = await cli('--home', nowhere, 'status')
  expect(status.code).toBe(1)
  expect(status.stdout).toMatch(/^hub: not running/)
  const stop = await cli('--home', nowhere, 'stop')
  expect(stop.code).toBe(0)
  expect(stop.stdout).toBe(`hub: not running (no home at ${nowhere})\n`)
  expect(existsSync(nowhere)).toBe(false)
})

it('start in a home where no hub ever ran makes its token, starts the hub and says where it runs', async () => {
  const fresh = join(world.home.dir, 'fresh')
  const started = await cli('--home', fresh, 'start')
  try {
    expect(started.stderr).toBe('')
    expect(started.code).toBe(0)
    expect(started.stdout).toContain(`the hub runs (pid ${hubsOf(fresh)[0]}) on ${world.home.url}`)
    expect(started.stdout).not.toContain('was running already')
    expect(existsSync(join(fresh, 'admin-token'))).toBe(true)
  } finally {
    await cli('--home', fresh, 'stop')
  }
})

it('a channel whose home was removed under it starts no hub there', async () => {
  const channel = await ChannelClient.start(world.home, ['--name', 'web'])
  world.opened.push(channel)
  await world.home.waitForHub()
  // A user without Claude Code's files: only the hub and the home are there to take out.
  const user = mkdtempSync(join(tmpdir(), 'switchboard-user-'))
  world.opened.push({ close: () => rmSync(user, { recursive: true, force: true }) })
  const purged = await cliWith({ HOME: user, PATH: '/usr/bin:/bin' }, 'uninstall', '--purge')
  expect(purged.stdout).toContain(`home: removed ${world.home.dir}`)
  await waitFor(
    () => channel.stderr.join('').includes('is gone; not starting a hub'),
    10_000,
    'the channel to say it',
  )
  expect(existsSync(world.home.dir)).toBe(false)
  expect(await answers()).toBe(false)
})

it('a hub started for a home removed meanwhile does not make the home again', async () => {
  // What a channel's autostart runs; the home went (uninstall --purge, a test's cleanup) while the
  // hub's process was still starting.
  const gone = join(world.home.dir, 'removed')
  const serve = await runCli(
    ['serve', '--home', gone, '--port', String(world.home.port), '--unless-stopped'],
    world.home.env,
    {
      timeout: 15_000,
    },
  )
  expect(serve.code).toBe(0)
  expect(existsSync(gone)).toBe(false)
  expect(await answers()).toBe(false)
})

it('a hub found unwanted once it holds the port starts nothing, and lets the port go', async () => {
  // What an autostarted hub does when a stop came while it was starting (serve --unless-stopped).
  const config = loadConfig({ home: world.home.dir, port: String(world.home.port) })
  ensureHome(config.home)
  const store = await openStore(config)
  try {
    await expect(
      startHub(config, store, pino({ level: 'silent' }), () => 'stopped meanwhile'),
    ).rejects.toThrow(HubUnwanted)
  } finally {
    await store.close()
  }
  expect(existsSync(join(world.home.dir, 'hub.json'))).toBe(false)
  const taken = createServer()
  await new Promise<void>((resolve, reject) => {
    taken.once('error', reject)
    taken.listen(world.home.port, '127.0.0.1', () => resolve())
  })
  await new Promise((resolve) => taken.close(resolve))
})

// A stop waits out a client's look at the socket and the port (3 s each) before it looks closer.
it('stop says which hub holds the port without answering, and fails, instead of "not running"', {
  timeout: 60_000,
}, async () => {
  // A hub whose event loop never comes back (a read that waits for good) holds its port and socket
  // and answers nothing: a stopped process does the same.
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  world.opened.push({ close: () => hub.kill('SIGKILL') })
  await world.home.waitForHub()
  const pid = world.home.hubPid() as number
  process.kill(pid, 'SIGSTOP')
  const stop = await cli('stop')
  expect({ code: stop.code, stderr: stop.stderr }).toEqual({
    code: 2,
    stderr: `switchboard: the hub (pid ${pid}) holds port ${world.home.port} but does not answer; not stopped: end it with kill -9 ${pid}\n`,
  })
  expect(alive(pid)).toBe(true)
})

it('stop says something holds the port without answering as a hub, and fails', {
  timeout: 60_000,
}, async () => {
  // It reads what it is sent (so a client that gives up is let go) and never answers: no pid to name.
  const mute = createServer((socket) => socket.resume())
  await new Promise<void>((resolve) => mute.listen(world.home.port, '127.0.0.1', () => resolve()))
  world.opened.push({ close: () => new Promise((resolve) => mute.close(resolve)) })
  const stop = await cli('stop')
  expect({ code: stop.code, stderr: stop.stderr }).toEqual({
    code: 2,
    stderr: `switchboard: something holds port ${world.home.port} but does not answer as a hub; not stopped\n`,
  })
})
