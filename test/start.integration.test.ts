// Starting the hub as a new user does: `npm start` builds only when a source changed since the last
// build, and the hub greets a person at a terminal with a banner (the dashboard, the home, the log,
// how to connect Claude Code) while its logs go to the home's log file; Ctrl-C stops it.
import { execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, expect, it } from 'vitest'
import { ROOT } from './helpers/claude.js'
import { CLI, waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import { TmuxSession } from './helpers/tmux.js'

const world = homePerTest()
const run = promisify(execFile)
const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
}

let project: string | undefined
afterEach(() => {
  if (project) rmSync(project, { recursive: true, force: true })
  project = undefined
})

/** A checkout in miniature: our prestart, a build that says it ran, a start that says it started. */
function miniature(): string {
  project = mkdtempSync(join(tmpdir(), 'switchboard-start-'))
  const dir = project
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true })
  const build = `node -e "const f=require('fs');f.mkdirSync('dist/cli',{recursive:true});f.mkdirSync('dist/web',{recursive:true});f.writeFileSync('dist/cli/main.js','');f.writeFileSync('dist/web/index.html','');f.writeFileSync('built','')"`
  const scripts = { build, prestart: ours.scripts.prestart, start: `node -e "console.log('started')"` }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'miniature', version: '0.0.0', scripts }))
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'a.ts'), '')
  return dir
}

/** Sets a file's (or folder's) times to `seconds` since the epoch. */
const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds)

it('npm start builds only when a source is newer than the last build', { timeout: 60_000 }, async () => {
  const dir = miniature()
  const npmStart = async () => (await run('npm', ['start'], { cwd: dir })).stdout
  // Nothing built yet: it builds.
  expect(await npmStart()).toContain('started')
  expect(existsSync(join(dir, 'built'))).toBe(true)
  rmSync(join(dir, 'built'))
  // Built after every source changed: it starts at once.
  for (const path of ['package.json', 'src', 'src/a.ts', 'scripts/bundle.mjs']) at(join(dir, path), 1_000)
  for (const path of ['dist/cli/main.js', 'dist/web/index.html']) at(join(dir, path), 2_000)
  expect(await npmStart()).toContain('started')
  expect(existsSync(join(dir, 'built'))).toBe(false)
  // A source changed since: it builds again.
  at(join(dir, 'src/a.ts'), 3_000)
  expect(await npmStart()).toContain('started')
  expect(existsSync(join(dir, 'built'))).toBe(true)
})

it('serve at a terminal shows a banner, keeps its logs in the home’s log file, and stops on Ctrl-C', {
  timeout: 60_000,
}, async () => {
  const user = mkdtempSync(join(tmpdir(), 'switchboard-user-'))
  // The shell stays after the hub (Ctrl-C reaches it too: it only notes it), so that the screen can
  // still be read once the hub stopped.
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
  const screen = await tmux.waitForScreen(/Stop it: Ctrl-C here, or switchboard stop/)
  expect(screen).toContain(`the hub runs (pid ${world.home.hubPid()}) on ${world.home.url}`)
  expect(screen).toContain('switchboard open')
  expect(screen).toContain(`logs       ${join(world.home.dir, 'logs', 'hub.log')}`)
  expect(screen).toContain('claude plugin install switchboard@switchboard')
  expect(screen).not.toContain('{"level"')
  const log = join(world.home.dir, 'logs', 'hub.log')
  await waitFor(
    () => existsSync(log) && readFileSync(log, 'utf8').includes('"msg":"hub listening"'),
    5_000,
    'the log',
  )
  expect((await world.home.cli('status')).split('\n')).toContain(`log: ${log}`)
  tmux.keys('C-c')
  const stopped = await tmux.waitForScreen(/exit \d+/)
  expect(stopped).toMatch(/hub stopped\s+exit 0/)
  expect(stopped).not.toContain('{"level"')
})

it('serve --json prints one line a script can read', async () => {
  const json = spawn(process.execPath, [CLI, 'serve', '--json'], { env: world.home.env })
  world.opened.push({ close: () => json.kill() })
  let stdout = ''
  json.stdout.on('data', (c: Buffer) => {
    stdout += c
  })
  await waitFor(() => stdout.includes('\n'), 10_000, 'the line')
  expect(JSON.parse(stdout)).toMatchObject({ running: true, home: world.home.dir, url: world.home.url })
})
