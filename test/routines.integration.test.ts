// Routines (issue 25) against a real hub process: webhooks posted to it start driven sessions (the
// scripted fake CLI), one run per key however many events a debounce window holds, within the caps;
// a denied gate starts no CLI; a budget spent stops the run; and a hub killed between taking an
// event and starting its run starts it once after a restart.
import { type ChildProcess, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { expect, it } from 'vitest'
import { POSTED_BY_SWITCHBOARD, type RoutineRun } from '../src/core/routines.js'
import { signInWith } from './helpers/dashboard.js'
import { type FakeScript, fakeClaude } from './helpers/fake-claude.js'
import { gitRepository } from './helpers/git-repo.js'
import { CLI, type CliRun, runCli, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { startReceiver } from './helpers/receiver.js'
import { SseReader } from './helpers/sse.js'

const world = homePerTest()

/** The hub, started on the test's home with CLIs that are the fake following `script`. */
async function hubWith(script: FakeScript) {
  const fake = fakeClaude(world.home.dir, script)
  world.home.extraEnv.CLAUDE_CODE_PATH = fake.env.CLAUDE_CODE_PATH as string
  world.home.extraEnv.FAKE_CLAUDE_SCRIPT = fake.env.FAKE_CLAUDE_SCRIPT as string
  // The fake's script reaches its CLIs as any name config.json adds would.
  world.home.extraEnv.SWITCHBOARD_SESSION_ENV = 'FAKE_CLAUDE_SCRIPT'
  const hub = startHub()
  await world.home.waitForHub()
  return { fake, hub }
}

function startHub(): ChildProcess {
  const hub = spawn(process.execPath, [CLI, 'serve'], { env: world.home.env, stdio: 'ignore' })
  world.opened.push({ close: () => hub.kill('SIGKILL') })
  return hub
}

/** The hub goes (killed, or stopped), and another is started on the home once it is gone. */
async function restartHub(hub: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  hub.kill(signal)
  await waitFor(() => hub.exitCode !== null || hub.signalCode !== null, 10_000, 'the hub to go')
  startHub()
  await world.home.waitForHub()
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = readFileSync(join(world.home.dir, 'admin-token'), 'utf8').trim()
  const res = await fetch(`${world.home.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as T
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

const runs = async (name: string) =>
  (await api<{ runs: RoutineRun[] }>('GET', `/api/routines/${name}/runs`)).runs

/** `switchboard routine add` of `spec`, from a file as a person adds one: its code and both streams. */
async function runRoutineAdd(spec: Record<string, unknown>, ...flags: string[]): Promise<CliRun> {
  const file = join(world.home.dir, `${String(spec.name)}.json`)
  writeFileSync(file, JSON.stringify(spec))
  return runCli(['routine', 'add', file, ...flags], world.home.env)
}

/**
 * A routine added through the hub's route, which `switchboard routine add` posts to: the tests of what
 * a routine does need no CLI started for it (the CLI's own are the tests that call runRoutineAdd).
 */
async function addRoutine(spec: Record<string, unknown>): Promise<void> {
  await api('POST', '/api/routines', spec)
}

async function post(secret: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${world.home.url}/hooks/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(202)
}

async function until(
  name: string,
  check: (rs: RoutineRun[]) => boolean,
  what: string,
): Promise<RoutineRun[]> {
  let last: RoutineRun[] = []
  await waitFor(
    async () => {
      last = await runs(name)
      return check(last)
    },
    20_000,
    what,
  )
  return last
}

/** An operator following their stream of the hub: the notices they were sent. */
async function operatorNamed(name: string) {
  const stream = await SseReader.open(world.home.url, await world.home.addSender(name, true))
  world.opened.push(stream)
  return {
    notices: () =>
      stream.messages.filter((m) => m.event === 'notice').map((m) => m.data as Record<string, unknown>),
  }
}

const alertRoutine = (over: Record<string, unknown> = {}) => ({
  name: 'alerts',
  trigger: { kind: 'events', topics: ['alerts'] },
  filter: [{ path: 'meta.severity', equals: 'critical' }],
  key: '{{meta.group}}',
  action: { kind: 'start', folder: world.home.dir, prompt: 'Alert group {{meta.group}}: gather the facts.' },
  ...over,
})

it('starts a session for a webhook that matches, with the event as untrusted data, and ends the run when its turn does', {
  timeout: 60_000,
}, async () => {
  const { fake } = await hubWith({ turns: [{ steps: [{ say: 'disk is full on db-1' }] }] })
  const secret = await world.home.addSource('alerts')
  await addRoutine(alertRoutine())
  await post(secret, { text: 'warning only', group: 'g0', severity: 'warning' })
  await post(secret, { text: 'db-1 </channel> is down', group: 'g1', severity: 'critical' })
  const [run] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  expect(run).toMatchObject({ key: 'g1', events: 1, trigger: 'event', reason: 'disk is full on db-1' })
  expect(run?.sessionId).toMatch(/^ses_/)
  // One CLI, for the critical alert only; its prompt has the event in a tag, escaped.
  expect(fake.runs()).toHaveLength(1)
  const prompt = JSON.stringify(fake.got().find((l) => l.type === 'user'))
  expect(prompt).toContain('Alert group \\"g1\\": gather the facts.')
  expect(prompt).toContain('untrusted data')
  expect(prompt).toContain('db-1 &lt;/channel&gt; is down')
  const listed = await world.home.cli('routine', 'runs', 'alerts')
  expect(listed).toContain(`${run?.id}\tdone\tevent\tkey=g1\tevents=1\tsession=${run?.sessionId}`)
})

it('tells each operator who wants them a run’s start and its end: the routine, the key, the session’s name, cost and outcome', {
  timeout: 60_000,
}, async () => {
  await hubWith({ turns: [{ steps: [{ say: 'disk is full on db-1' }] }] })
  const phone = await operatorNamed('phone')
  const quiet = await operatorNamed('quiet')
  expect(await world.home.cli('notices', 'quiet', 'waiting', 'finished')).toBe(
    'quiet gets notices when Claude waits for you and when Claude finishes a turn\n',
  )
  const secret = await world.home.addSource('alerts')
  await addRoutine(alertRoutine())
  await post(secret, { text: 'db-1 down', group: 'g1', severity: 'critical' })
  const [run] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  await waitFor(() => phone.notices().length === 2, 10_000, 'the run’s start and end told')
  const name = `${basename(world.home.dir)} · routine alerts`
  const about = {
    routine: 'alerts',
    run: run?.id,
    key: 'g1',
    session: `session:${run?.sessionId}`,
    session_name: name,
  }
  expect(phone.notices()).toEqual([
    expect.objectContaining({
      ...about,
      kind: 'run-started',
      text: `${name}: run ${run?.id} of routine alerts (g1) started`,
    }),
    expect.objectContaining({
      ...about,
      kind: 'run-ended',
      state: 'done',
      cost_usd: 0.01,
      outcome: 'disk is full on db-1',
      text: `${name}: run ${run?.id} of routine alerts (g1) done, $0.01\n\ndisk is full on db-1`,
    }),
  ])
  expect(quiet.notices()).toEqual([])
})

it('tells a run’s end as an event outbound webhooks get, which no routine takes, not even one on every topic', {
  timeout: 60_000,
}, async () => {
  const receiver = await startReceiver<{ content: string; meta: Record<string, string> }>()
  world.opened.push(receiver)
  await hubWith({ turns: [{ steps: [{ say: 'triaged 3 issues' }] }] })
  await world.home.cli('subscribe', '--url', `${receiver.url}/`, '--topics', 'routines.*')
  await addRoutine({
    name: 'all',
    trigger: { kind: 'events', topics: ['*'] },
    filter: [{ path: 'topic', equals: 'go' }],
    action: { kind: 'start', folder: world.home.dir, prompt: 'triage' },
  })
  const fired = JSON.parse(await world.home.cli('routine', 'fire', 'all', '--json')) as RoutineRun
  await waitFor(() => receiver.got.length > 0, 20_000, 'the run’s end to be POSTed')
  expect(receiver.got[0]?.body).toMatchObject({
    content: `routine all: run ${fired.id} done: triaged 3 issues`,
    meta: { routine: 'all', run: fired.id, state: 'done' },
  })
  // The routine on every topic was offered that event too, and took no run of it.
  await waitFor(
    async () => (await world.home.pending('routine:all')) === 0,
    10_000,
    'routine:all to be offered it',
  )
  expect((await runs('all')).map((r) => r.id)).toEqual([fired.id])
})

it('starts one run for 20 events of one key within the debounce window, a second for another key, and holds the cap', {
  timeout: 90_000,
}, async () => {
  // Each session holds its turn: runs stay running, so the cap is what keeps the third waiting.
  const { fake } = await hubWith({ turns: [{ steps: [{ hold: true }] }] })
  const secret = await world.home.addSource('alerts')
  await addRoutine(alertRoutine({ debounceSeconds: 2, concurrency: 2 }))
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      post(secret, { text: `db-${i} down`, group: 'g1', severity: 'critical' }),
    ),
  )
  await post(secret, { text: 'api down', group: 'g2', severity: 'critical' })
  const started = await until(
    'alerts',
    (rs) => rs.filter((r) => r.state === 'running').length === 2,
    'two runs to be running',
  )
  expect(started.map((r) => [r.key, r.events]).sort()).toEqual([
    ['g1', 20],
    ['g2', 1],
  ])
  // Every one of the 20 is in the first run's prompt (once its CLI has read it).
  const prompt = () =>
    fake
      .got()
      .filter((l) => l.type === 'user')
      .map((l) => JSON.stringify(l))
      .find((p) => p.includes('db-0 down'))
  await waitFor(() => prompt() !== undefined, 10_000, 'the first run’s prompt to be read')
  const g1 = prompt()
  for (let i = 0; i < 20; i++) expect(g1).toContain(`db-${i} down`)

  await post(secret, { text: 'cache down', group: 'g3', severity: 'critical' })
  const third = await until('alerts', (rs) => rs.some((r) => r.key === 'g3'), 'the third run')
  // Past its (2 s) debounce, it still waits: two runs are running.
  const g3 = third.find((r) => r.key === 'g3') as RoutineRun
  await waitFor(() => Date.now() > g3.dueAt + 2_000, 10_000, 'the third run to be due a while')
  expect((await runs('alerts')).find((r) => r.key === 'g3')?.state).toBe('pending')
  expect(fake.runs()).toHaveLength(2)
})

it('holds the routineRuns cap across routines, and starts the run it kept waiting once a slot is free', {
  timeout: 90_000,
}, async () => {
  world.home.extraEnv.SWITCHBOARD_ROUTINE_RUNS = '2'
  const { fake } = await hubWith({ turns: [{ steps: [{ hold: true }] }] })
  for (const name of ['first', 'second'])
    await addRoutine({
      name,
      trigger: { kind: 'manual' },
      // A run per firing: one of the same key would join the run under way.
      key: '{{id}}',
      concurrency: 3,
      action: { kind: 'start', folder: world.home.dir, prompt: `the ${name} routine` },
    })
  const fire = async (name: string) =>
    JSON.parse(await world.home.cli('routine', 'fire', name, '--json')) as RoutineRun
  const a = await fire('first')
  const b = await fire('second')
  await until('first', (rs) => rs[0]?.state === 'running', 'the first routine’s run')
  await until('second', (rs) => rs[0]?.state === 'running', 'the second routine’s run')
  // Each routine's own cap (3) would take it; the hubs' (2) keeps it pending while two run.
  const c = await fire('second')
  await waitFor(() => Date.now() > c.dueAt + 2_000, 10_000, 'the third run to be due a while')
  expect((await runs('second')).find((r) => r.id === c.id)?.state).toBe('pending')
  expect(fake.runs()).toHaveLength(2)

  const [first] = await runs('first')
  expect(first?.id).toBe(a.id)
  await api('POST', `/api/sessions/${first?.sessionId}/stop`)
  await until('first', (rs) => rs[0]?.state !== 'running', 'the first run to end')
  await until(
    'second',
    (rs) => rs.find((r) => r.id === c.id)?.state === 'running',
    'the waiting run to start',
  )
  await waitFor(() => fake.runs().length === 3, 10_000, 'its CLI to start')
  expect((await runs('second')).find((r) => r.id === b.id)?.state).toBe('running')
})

it('sends an event of a running run’s key into its session, and ends the run once that turn is done too', {
  timeout: 60_000,
}, async () => {
  // The first turn asks for Bash: it waits for an operator while the second alert comes.
  const { fake } = await hubWith({
    turns: [
      {
        when: 'Alert group',
        steps: [{ ask: { tool: 'Bash', input: { command: 'df -h' } } }, { say: 'full' }],
      },
      { steps: [{ say: 'still full' }] },
    ],
  })
  const secret = await world.home.addSource('alerts')
  await addRoutine(alertRoutine())
  await post(secret, { text: 'db-1 down', group: 'g1', severity: 'critical' })
  const [running] = await until('alerts', (rs) => rs[0]?.state === 'running', 'the run to be running')
  type Open = { decisions: { id: string; owner: string }[] }
  await waitFor(
    async () =>
      (await api<Open>('GET', '/api/decisions')).decisions.some((d) => d.owner === running?.sessionId),
    10_000,
    'the session to ask for Bash',
  )
  await post(secret, { text: 'db-2 down', group: 'g1', severity: 'critical' })
  await until('alerts', (rs) => rs[0]?.events === 2, 'the second alert to join the run')
  const { decisions } = await api<Open>('GET', '/api/decisions')
  const asked = decisions.find((d) => d.owner === running?.sessionId)
  await world.home.cli('answer', String(asked?.id), 'yes')
  const [done] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  expect(done).toMatchObject({ id: running?.id, events: 2, reason: 'still full' })
  const prompts = fake.got().filter((l) => l.type === 'user' && JSON.stringify(l).includes('down'))
  expect(prompts.map((p) => JSON.stringify(p).includes('db-2 down'))).toEqual([false, true])
  expect(fake.runs()).toHaveLength(1)
})

it('runs a session in a fresh worktree on a new branch, and removes the worktree once the run is done', {
  timeout: 60_000,
}, async () => {
  const { dir: repo, git, forgot } = gitRepository(join(world.home.dir, 'repo'))
  await hubWith({ turns: [{ steps: [{ say: 'fixed' }] }] })
  const secret = await world.home.addSource('alerts')
  await addRoutine(
    alertRoutine({
      action: {
        kind: 'start',
        worktree: { repo, branch: 'fix/{{meta.group}} now' },
        prompt: 'fix {{meta.group}}',
      },
    }),
  )
  await post(secret, { text: 'db down', group: 'g1', severity: 'critical' })
  const [run] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  const session = await api<{ cwd: string }>('GET', `/api/sessions/${run?.sessionId}`)
  expect(session.cwd).toBe(join(world.home.dir, 'worktrees', String(run?.id)))
  await waitFor(() => forgot(session.cwd), 10_000, 'the worktree to be removed')
  expect(git('branch', '--list', 'fix/*').trim()).toBe('fix/g1-now')
  expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1)
})

it('keeps a run’s worktree that has uncommitted changes whatever its cleanup says, and tells operators where it is', {
  timeout: 60_000,
}, async () => {
  const { dir: repo, git } = gitRepository(join(world.home.dir, 'repo'))
  // The session leaves a file it did not commit.
  await hubWith({
    turns: [{ steps: [{ write: { file: 'notes.md', text: 'half done\n' } }, { say: 'left notes' }] }],
  })
  const phone = await operatorNamed('phone')
  const secret = await world.home.addSource('alerts')
  await addRoutine(
    alertRoutine({
      action: {
        kind: 'start',
        worktree: { repo, branch: 'fix/{{meta.group}}', cleanup: 'always' },
        prompt: 'fix {{meta.group}}',
      },
    }),
  )
  await post(secret, { text: 'db down', group: 'g1', severity: 'critical' })
  const [run] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  const path = join(world.home.dir, 'worktrees', String(run?.id))
  await waitFor(() => phone.notices().some((n) => n.kind === 'run-ended'), 10_000, 'the run’s end told')
  const ended = phone.notices().find((n) => n.kind === 'run-ended')
  expect(ended).toMatchObject({
    run: run?.id,
    worktree: { path, branch: 'fix/g1', kept: true, uncommitted: ['?? notes.md'] },
  })
  expect(String(ended?.text)).toContain(
    `The worktree has uncommitted changes (1 file) and is kept: ${path}, on branch fix/g1`,
  )
  // Still there, with the change, where git knows it.
  expect(readFileSync(join(path, 'notes.md'), 'utf8')).toBe('half done\n')
  expect(git('worktree', 'list')).toContain(path)
})

it('adds a routine that comments on GitHub without a token with a warning, and lists its queue as no channel', async () => {
  await hubWith({ turns: [] })
  const repo = join(world.home.dir, 'repo')
  const added = await runRoutineAdd({
    name: 'triage',
    trigger: { kind: 'events', topics: ['gh.issues'] },
    action: { kind: 'start', worktree: { repo, branch: 'triage' }, prompt: 'Triage.', commentOnGitHub: true },
  })
  expect(added.code).toBe(0)
  expect(added.stdout).toContain(`triage\ton gh.issues\tstarts a session in a new worktree of ${repo}`)
  expect(added.stderr.trim()).toBe(
    'switchboard: warning: commentOnGitHub is set but the hub has no githubToken: each comment will be a ' +
      'dead letter until SWITCHBOARD_GITHUB_TOKEN or githubToken in config.json is set and the hub restarted',
  )
  // The routine's queue of events is the hub's own, not a channel session's.
  const { channels } = await api<{ channels: { name: string }[] }>('GET', '/api/channels')
  expect(channels.map((c) => c.name)).toEqual([])
})

it('comments a run’s end on the GitHub issue it was about, trying again when GitHub fails', {
  timeout: 60_000,
}, async () => {
  let failures = 1
  const github = await startReceiver<{ body: string }>(() =>
    failures-- > 0 ? { status: 502, body: '{"message":"Server Error"}' } : { status: 201, body: '{"id":1}' },
  )
  world.opened.push(github)
  world.home.extraEnv.SWITCHBOARD_GITHUB_TOKEN = 'ghp_routinecomments0123456789'
  world.home.extraEnv.SWITCHBOARD_GITHUB_API_URL = github.url
  // A comment is public: the hub's own token in the answer does not reach it.
  await hubWith({
    turns: [{ steps: [{ say: 'Safari 17 blocks the click handler (ghp_routinecomments0123456789)' }] }],
  })
  const out = await world.home.cli('source', 'add', 'gh', '--preset', 'github')
  const secret = /secret: (\S+)/.exec(out)?.[1] ?? ''
  await addRoutine({
    name: 'triage',
    trigger: { kind: 'events', topics: ['gh.issues'] },
    filter: [{ path: 'meta.action', equals: 'opened' }],
    action: {
      kind: 'start',
      folder: world.home.dir,
      prompt: 'Triage issue {{meta.number}}.',
      commentOnGitHub: true,
    },
  })
  const body = readFileSync(join(import.meta.dirname, 'fixtures/webhooks/github-issues-opened.json'))
  const res = await fetch(`${world.home.url}/hooks/gh`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issues',
      'x-github-delivery': '5d1c7a52-0000-4000-8000-000000000034',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  })
  expect(res.status).toBe(202)
  const [run] = await until('triage', (rs) => rs[0]?.state === 'done', 'the run to be done')
  await waitFor(() => github.got.length === 1, 20_000, 'the comment on the issue')
  const [comment] = github.got
  expect(comment?.path).toBe('/repos/acme/webshop/issues/34/comments')
  expect(comment?.headers.authorization).toBe('Bearer ghp_routinecomments0123456789')
  expect(comment?.body).toEqual({
    body: `routine triage: run ${run?.id} done: Safari 17 blocks the click handler (‹redacted›)\n\n${POSTED_BY_SWITCHBOARD}`,
  })
  const log = await world.home.cli('deliveries', 'github:comments')
  expect(log).toMatch(/attempt 1\t502/)
  expect(log).toMatch(/attempt 2\t201/)

  // Fired by hand with GitHub's fields of the caller's choosing: nothing is posted anywhere.
  const forged = join(world.home.dir, 'forged.json')
  writeFileSync(
    forged,
    JSON.stringify({
      source: 'gh',
      meta: { github_event: 'issues', repository: 'someone/else', number: '1' },
    }),
  )
  const fired = JSON.parse(
    await world.home.cli('routine', 'fire', 'triage', '--event', forged, '--json'),
  ) as RoutineRun
  await until(
    'triage',
    (rs) => rs.find((r) => r.id === fired.id)?.state === 'done',
    'the fired run to be done',
  )
  // Its end is stored, and handed to the poster, which took it without posting.
  await waitFor(
    async () =>
      (await api<{ events: unknown[] }>('GET', `/api/events?q=${fired.id}`)).events.length === 1 &&
      (await world.home.pending('github:comments')) === 0,
    10_000,
    'the fired run’s end to be handed to the poster',
  )
  expect(github.got).toHaveLength(1)
  expect(await world.home.cli('deliveries', 'github:comments')).not.toContain('attempt 3')
})

it('delivers a run’s events to a named live session as untrusted data, and is done', {
  timeout: 60_000,
}, async () => {
  const { fake } = await hubWith({ turns: [{ steps: [{ say: 'noted' }] }] })
  const session = await api<{ id: string }>('POST', '/api/sessions', {
    prompt: 'wait for alerts',
    options: { cwd: world.home.dir },
  })
  await waitFor(
    async () => (await api<{ status: string }>('GET', `/api/sessions/${session.id}`)).status === 'idle',
    10_000,
    'the session to be idle',
  )
  await addRoutine({
    name: 'forward',
    trigger: { kind: 'manual' },
    action: { kind: 'deliver', session: session.id },
  })
  const event = join(world.home.dir, 'event.json')
  writeFileSync(
    event,
    JSON.stringify({ topic: 'alerts', content: 'disk <b>full</b>', meta: { host: 'db-1' } }),
  )
  await world.home.cli('routine', 'fire', 'forward', '--event', event)
  const [run] = await until('forward', (rs) => rs[0]?.state === 'done', 'the run to be done')
  expect(run).toMatchObject({ sessionId: session.id, reason: `delivered to ${session.id}` })
  await waitFor(
    () => fake.got().some((l) => l.type === 'user' && JSON.stringify(l).includes('disk &lt;b&gt;full')),
    10_000,
    'the session to be sent the event',
  )
  const sent = JSON.stringify(
    fake
      .got()
      .filter((l) => l.type === 'user')
      .at(-1),
  )
  expect(sent).toContain('untrusted data')
  expect(sent).toContain('host=\\"db-1\\"')
  expect(fake.runs()).toHaveLength(1)
})

it('starts no CLI when the gate is denied, says who denied it, and starts it once the run is replayed and approved', {
  timeout: 60_000,
}, async () => {
  const { fake } = await hubWith({})
  await addRoutine({
    name: 'gated',
    trigger: { kind: 'manual' },
    gate: true,
    action: { kind: 'start', folder: world.home.dir, prompt: 'triage the new issues' },
  })
  const fired = await world.home.cli('routine', 'fire', 'gated', '--json')
  const run = JSON.parse(fired) as RoutineRun
  const [gated] = await until('gated', (rs) => rs[0]?.state === 'gated', 'the run to be gated')
  const decisions = await api<{ decisions: { id: string; request: Record<string, unknown> }[] }>(
    'GET',
    '/api/decisions',
  )
  const decision = decisions.decisions.find((d) => d.id === gated?.decisionId)
  expect(JSON.stringify(decision?.request)).toContain('triage the new issues')
  await world.home.cli('answer', String(decision?.id), 'no')
  const [ended] = await until('gated', (rs) => rs[0]?.state === 'stopped', 'the run to stop')
  expect(ended).toMatchObject({ id: run.id, reason: expect.stringMatching(/^the gate was denied by /) })
  expect(fake.runs()).toEqual([])

  // Replayed, it is gated again; approved, its session starts.
  const replayed = JSON.parse(
    await world.home.cli('routine', 'replay', 'gated', run.id, '--json'),
  ) as RoutineRun
  expect(replayed).toMatchObject({ trigger: 'replay', state: 'pending', events: 1 })
  const again = await until('gated', (rs) => rs[0]?.state === 'gated', 'the replay to be gated')
  await world.home.cli('answer', String(again[0]?.decisionId), 'yes')
  await until('gated', (rs) => rs[0]?.state === 'done', 'the replay to be done')
  expect(fake.runs()).toHaveLength(1)
  const refused = await world.home.cliFails('routine', 'replay', 'gated', 'run_nope')
  expect(refused.stderr).toBe('switchboard: no run "run_nope" of routine gated\n')
})

it('starts an approved gate’s session with the events it showed only; one that came while it waited gets a gate of its own', {
  timeout: 60_000,
}, async () => {
  const { fake } = await hubWith({ turns: [{ steps: [{ say: 'looked' }] }] })
  const secret = await world.home.addSource('alerts')
  await addRoutine(alertRoutine({ gate: true }))
  type Open = { decisions: { id: string; request: Record<string, unknown> }[] }
  /** The gate of the newest run, once it is open: its run and what it shows operators. */
  async function openGate(what: string) {
    const [run] = await until('alerts', (rs) => rs[0]?.state === 'gated' && !!rs[0].decisionId, what)
    const { decisions } = await api<Open>('GET', '/api/decisions')
    const shown = JSON.stringify(decisions.find((d) => d.id === run?.decisionId)?.request)
    return { run, shown }
  }

  await post(secret, { text: 'db-1 disk full', group: 'g1', severity: 'critical' })
  const first = await openGate('the first alert’s gate')
  expect(first.shown).toContain('db-1 disk full')
  // The sender's second alert of the same group comes while the operator reads the first.
  await post(secret, { text: 'db-1 rm -rf /var/lib/db', group: 'g1', severity: 'critical' })
  await until('alerts', (rs) => rs.reduce((n, r) => n + r.events, 0) === 2, 'the second alert to be taken')
  await world.home.cli('answer', String(first.run?.decisionId), 'yes')
  await until('alerts', (rs) => rs.some((r) => r.id === first.run?.id && r.state === 'done'), 'the run')
  const prompts = () =>
    fake
      .got()
      .filter((l) => l.type === 'user')
      .map((l) => JSON.stringify(l))
  expect(prompts()[0]).toContain('db-1 disk full')
  expect(prompts()[0]).not.toContain('rm -rf')

  // The second alert was not lost: its own gate shows it, and approved, it starts a session of its own.
  const second = await openGate('the second alert’s gate')
  expect(second.run?.id).not.toBe(first.run?.id)
  expect(second.shown).toContain('rm -rf /var/lib/db')
  expect(second.shown).not.toContain('disk full')
  await world.home.cli('answer', String(second.run?.decisionId), 'yes')
  await until('alerts', (rs) => rs[0]?.id === second.run?.id && rs[0]?.state === 'done', 'the second run')
  expect(prompts()).toHaveLength(2)
  expect(prompts()[1]).toContain('rm -rf /var/lib/db')
  expect(prompts()[1]).not.toContain('disk full')
  expect(fake.runs()).toHaveLength(2)
})

it('stops a run whose session spent its budget, and tells operators', { timeout: 60_000 }, async () => {
  await hubWith({ turns: [{ steps: [{ say: 'spent' }] }] })
  await addRoutine({
    name: 'costly',
    trigger: { kind: 'manual' },
    action: { kind: 'start', folder: world.home.dir, prompt: 'go', maxBudgetUsd: 0.005 },
  })
  // Told even to an operator who turned the runs' notices off: the run cost more than it was allowed.
  const quiet = await operatorNamed('quiet')
  await world.home.cli('notices', 'quiet', 'waiting')
  await world.home.cli('routine', 'fire', 'costly')
  const [run] = await until('costly', (rs) => rs[0]?.state === 'stopped', 'the run to stop')
  expect(run?.reason).toBe('over budget: $0.01 of $0.005 spent')
  await waitFor(() => quiet.notices().length > 0, 10_000, 'the operator to be told')
  expect(quiet.notices()).toEqual([
    expect.objectContaining({
      kind: 'run-ended',
      state: 'stopped',
      text: expect.stringMatching(/ stopped, \$0\.01\n\nover budget: \$0\.01 of \$0\.005 spent$/),
    }),
  ])
})

it('starts the run once after the hub was killed between taking the event and starting it', {
  timeout: 90_000,
}, async () => {
  const { fake, hub } = await hubWith({ turns: [{ steps: [{ say: 'looked' }] }] })
  const secret = await world.home.addSource('alerts')
  // Long enough that the hub is killed before the run is due, however slow the machine.
  await addRoutine(alertRoutine({ debounceSeconds: 6 }))
  await post(secret, { text: 'db down', group: 'g1', severity: 'critical' })
  const [pending] = await until('alerts', (rs) => rs[0]?.state === 'pending', 'the run to be taken')
  await restartHub(hub, 'SIGKILL')
  const [done] = await until('alerts', (rs) => rs[0]?.state === 'done', 'the run to be done')
  expect(done?.id).toBe(pending?.id)
  expect(await runs('alerts')).toHaveLength(1)
  expect(fake.runs()).toHaveLength(1)
})

it.each(['SIGTERM', 'SIGKILL'] as const)(
  'carries on a run whose hub went (%s) mid-turn: its session resumes, and the run ends done',
  {
    timeout: 90_000,
  },
  async (signal) => {
    const { fake, hub } = await hubWith({
      turns: [
        { when: 'hub running this session restarted', steps: [{ say: 'finished after the restart' }] },
        { steps: [{ hold: true }] },
      ],
    })
    await addRoutine({
      name: 'long',
      trigger: { kind: 'manual' },
      action: { kind: 'start', folder: world.home.dir, prompt: 'a long job' },
    })
    await world.home.cli('routine', 'fire', 'long')
    const [running] = await until('long', (rs) => rs[0]?.state === 'running', 'the run to be running')
    // Mid-turn: its CLI has begun the Claude session a resume goes on with.
    await waitFor(
      async () =>
        (await api<{ claudeSessionId: string | null }>('GET', `/api/sessions/${running?.sessionId}`))
          .claudeSessionId !== null,
      20_000,
      'its CLI to begin the Claude session',
    )
    await restartHub(hub, signal)
    const [done] = await until('long', (rs) => rs[0]?.state === 'done', 'the run to be done')
    expect(done).toMatchObject({ id: running?.id, reason: 'finished after the restart' })
    // The second CLI resumed the first's Claude session.
    expect(fake.runs()).toHaveLength(2)
    expect(fake.runs()[1]).toContain('--resume')
  },
)

it('starts a run’s session anew when its hub was killed before the session had begun', {
  timeout: 90_000,
}, async () => {
  const { fake, hub } = await hubWith({
    turns: [{ run: 1, init: false, steps: [{ hold: true }] }, { steps: [{ say: 'begun again' }] }],
  })
  await addRoutine({
    name: 'early',
    trigger: { kind: 'manual' },
    action: { kind: 'start', folder: world.home.dir, prompt: 'a job' },
  })
  await world.home.cli('routine', 'fire', 'early')
  const [running] = await until('early', (rs) => rs[0]?.state === 'running', 'the run to be running')
  await waitFor(() => fake.got().some((l) => l.type === 'user'), 10_000, 'its CLI to read the prompt')
  await restartHub(hub, 'SIGKILL')
  const [done] = await until('early', (rs) => rs[0]?.state === 'done', 'the run to be done')
  expect(done).toMatchObject({ id: running?.id, sessionId: running?.sessionId, reason: 'begun again' })
  // A second CLI, from the start (nothing to resume), given the run's prompt again.
  expect(fake.runs()).toHaveLength(2)
  expect(fake.runs()[1]).not.toContain('--resume')
  expect(fake.got().filter((l) => l.type === 'user' && JSON.stringify(l).includes('a job'))).toHaveLength(2)
})

it('lets a signed-in browser fire a routine, but not one that runs tools unasked: that stays the admin token’s', {
  timeout: 60_000,
}, async () => {
  await hubWith({ turns: [{ steps: [{ say: 'looked' }] }] })
  await addRoutine({ ...alertRoutine({ name: 'asks' }), trigger: { kind: 'manual' } })
  const unasked = await runRoutineAdd(
    {
      ...alertRoutine({ name: 'unasked' }),
      trigger: { kind: 'manual' },
      action: { kind: 'start', folder: world.home.dir, prompt: 'Tidy up.', permissionMode: 'acceptEdits' },
    },
    '--allow-pre-approval',
  )
  expect(unasked.code, unasked.stderr).toBe(0)
  const link = /(http:\/\/\S+\/signin\?token=\S+)/.exec(
    await world.home.cli('open', '--print'),
  )?.[1] as string
  const browser = { ...(await signInWith(link)), 'x-switchboard': '1', 'content-type': 'application/json' }
  const fire = (name: string) =>
    fetch(`${world.home.url}/api/routines/${name}/fire`, { method: 'POST', headers: browser, body: '{}' })
  expect((await fire('asks')).status).toBe(201)
  const refused = await fire('unasked')
  expect(refused.status).toBe(403)
  expect(((await refused.json()) as { error: string }).error).toMatch(/without asking.*admin/)
  expect(await runs('unasked')).toEqual([])
  await api('POST', '/api/routines/unasked/fire', {})
  await until('unasked', (rs) => rs.length === 1, 'the admin’s run')
})

it('refuses a routine with one line per problem, and a dry run says what an event would do', {
  timeout: 60_000,
}, async () => {
  await hubWith({})
  const file = join(world.home.dir, 'bad.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'Bad',
      trigger: { kind: 'events', topics: [] },
      action: { kind: 'start', folder: 'repo', prompt: 'x', permissionMode: 'bypassPermissions' },
    }),
  )
  const refused = await world.home.cliFails('routine', 'add', file)
  expect(refused.code).not.toBe(0)
  expect(refused.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^switchboard: .*bad\.json: name: a routine name is/),
    expect.stringMatching(/^switchboard: .*bad\.json: trigger\.topics: name at least one topic/),
    expect.stringMatching(/^switchboard: .*bad\.json: action\.folder: must be an absolute path/),
    expect.stringMatching(
      /^switchboard: .*bad\.json: action: permissionMode bypassPermissions: tools would run/,
    ),
  ])
  await addRoutine(alertRoutine())
  const event = join(world.home.dir, 'event.json')
  writeFileSync(
    event,
    JSON.stringify({ topic: 'alerts', content: 'x', meta: { group: 'g7', severity: 'critical' } }),
  )
  const dry = await world.home.cli('routine', 'test', 'alerts', '--event', event)
  expect(dry).toContain('a new run (key "g7"): would start a session in')
  expect(dry).toContain('Alert group "g7": gather the facts.')
  writeFileSync(event, JSON.stringify({ meta: { group: 'g7', severity: 'warning' } }))
  expect(await world.home.cli('routine', 'test', 'alerts', '--event', event)).toBe(
    'no run: the condition {"path":"meta.severity","equals":"critical"} does not hold\n',
  )
  expect(await runs('alerts')).toEqual([])
})

it('tests a webhook body against a routine through its source’s preset, as a real delivery would be', {
  timeout: 60_000,
}, async () => {
  await hubWith({})
  await world.home.cli('source', 'add', 'gh', '--preset', 'github')
  await addRoutine({
    name: 'triage',
    trigger: { kind: 'events', topics: ['gh.issues'] },
    filter: [{ path: 'meta.action', equals: 'opened' }],
    key: '{{meta.repository}}#{{meta.number}}',
    action: {
      kind: 'start',
      folder: world.home.dir,
      prompt: 'Triage issue {{meta.number}}: {{meta.title}}.',
    },
  })
  const fixture = (name: string) => join(import.meta.dirname, 'fixtures/webhooks', name)
  const body = fixture('github-issues-opened.json')
  const test = (...more: string[]) =>
    runCli(['routine', 'test', 'triage', '--source', 'gh', '--event', body, ...more], world.home.env)

  const issue = await test('--header', 'X-GitHub-Event: issues')
  expect(issue.stderr).toBe('')
  expect(issue.stdout.split('\n').slice(0, 3)).toEqual([
    'event: gh.issues: carol opened issue #34 in acme/webshop: Checkout button does nothing on Safari 17 — https://github.com/acme/webshop/issues/34',
    `a new run (key "acme/webshop#34"): would start a session in ${world.home.dir}`,
    'prompt:',
  ])
  expect(issue.stdout).toContain('Triage issue "34": "Checkout button does nothing on Safari 17".')
  // A pull request's delivery is on another topic, which the routine does not take.
  const pull = await runCli(
    [
      ...[
        'routine',
        'test',
        'triage',
        '--source',
        'gh',
        '--event',
        fixture('github-pull_request-opened.json'),
      ],
      ...['--header', 'X-GitHub-Event: pull_request', '--json'],
    ],
    world.home.env,
  )
  expect(JSON.parse(pull.stdout)).toMatchObject({
    matched: false,
    why: 'its topic gh.pull_request is not one the routine takes (gh.issues)',
    event: { topic: 'gh.pull_request', source: 'gh' },
  })
  // What GitHub always sends is asked for, as the webhook route asks for it.
  const bare = await test()
  expect(bare.code).not.toBe(0)
  expect(bare.stderr).toBe('switchboard: missing X-GitHub-Event header: a GitHub webhook always sends one\n')
  // A body given without its source says how to give it one.
  const unsourced = await runCli(['routine', 'test', 'triage', '--event', body], world.home.env)
  expect(unsourced.code).not.toBe(0)
  expect(unsourced.stderr).toMatch(
    /^switchboard: --event .*\(not an event: .*a webhook body\? name its source: --source <name>\)$/m,
  )
  expect(await runs('triage')).toEqual([])
})
