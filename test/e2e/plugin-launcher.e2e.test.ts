// The plugin's launcher (plugin/launch.mjs) on its own: which Switchboard it starts, that it stays
// out of the way of the MCP stream (stdin, stdout, the exit code and signals pass straight through),
// and that `switchboard doctor` finds why it could not start one.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { VERSION } from '../../src/core/version.js'
import { PLUGIN_DIR, ROOT } from '../helpers/claude.js'
import { CLI } from '../helpers/home.js'
import { pathWithoutSwitchboard } from '../helpers/plugin.js'

let dir: string
let bare: string

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'launcher-')))
  bare = pathWithoutSwitchboard(join(dir, 'bare-bin'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

interface Run {
  child: ChildProcess
  stdout: string
  stderr: string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

function launch(launcher: string, args: string[], PATH: string, env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [launcher, ...args], { env: { PATH, ...env }, cwd: dir })
  const run: Run = {
    child,
    stdout: '',
    stderr: '',
    exit: new Promise((done) => child.on('exit', (code, signal) => done({ code, signal }))),
  }
  child.stdout?.on('data', (chunk: Buffer) => {
    run.stdout += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    run.stderr += chunk
  })
  return run
}

/** A `switchboard` on PATH: a shell script that does what its first argument says. */
function shimOnPath(): string {
  const bin = join(dir, 'shim-bin')
  mkdirSync(bin)
  const script = [
    '#!/bin/sh',
    'case "$1" in',
    '  echo) exec cat ;;',
    '  exit) exit "$2" ;;',
    '  die) kill -TERM $$ ;;',
    `  trap) trap 'echo stopped > "$2"; exit 0' TERM; echo ready; while :; do sleep 0.05; done ;;`,
    'esac',
  ]
  writeFileSync(join(bin, 'switchboard'), `${script.join('\n')}\n`, { mode: 0o755 })
  return `${bin}:${bare}`
}

/** A copy of the plugin folder at `folder`, as a marketplace install makes one. */
function pluginCopy(folder: string): string {
  cpSync(PLUGIN_DIR, folder, { recursive: true })
  return join(folder, 'launch.mjs')
}

it('runs the checkout around the plugin when no switchboard is on PATH', async () => {
  const run = launch(join(PLUGIN_DIR, 'launch.mjs'), ['--version'], bare)
  expect(await run.exit).toEqual({ code: 0, signal: null })
  expect(run.stdout).toBe(`${VERSION}\n`)
})

it('runs the checkout a marketplace was added from, for an installed copy of the plugin', async () => {
  const plugins = join(dir, 'claude/plugins')
  const launcher = pluginCopy(join(plugins, 'cache/sb-market/switchboard/0.1.0'))
  writeFileSync(
    join(plugins, 'known_marketplaces.json'),
    JSON.stringify({ 'sb-market': { source: { source: 'directory', path: ROOT }, installLocation: ROOT } }),
  )
  const run = launch(launcher, ['--version'], bare)
  expect(await run.exit).toEqual({ code: 0, signal: null })
  expect(run.stdout).toBe(`${VERSION}\n`)
})

it('says why in one line on stderr, and nothing on stdout, when there is no Switchboard to start', async () => {
  const run = launch(pluginCopy(join(dir, 'lonely-plugin')), ['channel'], bare)
  expect(await run.exit).toEqual({ code: 1, signal: null })
  expect(run.stdout).toBe('')
  expect(run.stderr).toMatch(/^switchboard plugin: no Switchboard to start: [^\n]*npm ci[^\n]*\n$/)
})

it('runs the switchboard on PATH, with stdin and stdout passed through as they come', async () => {
  const run = launch(join(PLUGIN_DIR, 'launch.mjs'), ['echo'], shimOnPath())
  run.child.stdin?.write('{"jsonrpc":"2.0","id":1}\n')
  await expect.poll(() => run.stdout, { timeout: 5_000 }).toBe('{"jsonrpc":"2.0","id":1}\n')
  run.child.stdin?.end()
  expect(await run.exit).toEqual({ code: 0, signal: null })
})

it('ends as the switchboard on PATH ends: its exit code, or the signal that stopped it', async () => {
  const path = shimOnPath()
  const launcher = join(PLUGIN_DIR, 'launch.mjs')
  expect(await launch(launcher, ['exit', '7'], path).exit).toEqual({ code: 7, signal: null })
  expect(await launch(launcher, ['die'], path).exit).toEqual({ code: null, signal: 'SIGTERM' })
})

it('hands a signal it gets to the switchboard on PATH', async () => {
  const stopped = join(dir, 'stopped')
  const run = launch(join(PLUGIN_DIR, 'launch.mjs'), ['trap', stopped], shimOnPath())
  await expect.poll(() => run.stdout, { timeout: 5_000 }).toBe('ready\n')
  run.child.kill('SIGTERM')
  expect(await run.exit).toEqual({ code: 0, signal: null })
  expect(readFileSync(stopped, 'utf8')).toBe('stopped\n')
})

it('runs a switchboard on PATH that is a JavaScript file (npm link) in its own process', async () => {
  const bin = join(dir, 'linked-bin')
  mkdirSync(bin)
  const cli = join(dir, 'cli.js')
  writeFileSync(
    cli,
    'process.stdout.write(JSON.stringify({ pid: process.pid, args: process.argv.slice(2) }))\n',
    {
      mode: 0o755,
    },
  )
  symlinkSync(cli, join(bin, 'switchboard'))
  const run = launch(join(PLUGIN_DIR, 'launch.mjs'), ['channel', '--name', 'x'], `${bin}:${bare}`)
  expect(await run.exit).toEqual({ code: 0, signal: null })
  expect(JSON.parse(run.stdout)).toEqual({ pid: run.child.pid, args: ['channel', '--name', 'x'] })
})

it('leaves why it could not start Switchboard where doctor finds it, until a start works', async () => {
  const home = join(dir, 'switchboard-home')
  const env = { SWITCHBOARD_HOME: home, HOME: dir }
  const doctor = async () => {
    try {
      return (await promisify(execFile)(process.execPath, [CLI, 'doctor'], { env: { ...env, PATH: bare } }))
        .stdout
    } catch (err) {
      return (err as { stdout: string }).stdout
    }
  }
  const lonely = pluginCopy(join(dir, 'lonely-plugin'))
  expect(await launch(lonely, ['channel'], bare, env).exit).toEqual({ code: 1, signal: null })
  const report = await doctor()
  expect(report).toMatch(
    /FAIL +plugin: the plugin could not start Switchboard \(.*\): no Switchboard to start/,
  )
  expect(report).toMatch(/fix: run `npm ci` in the Switchboard checkout the plugin came from/)
  expect(report).toContain('not healthy')
  // A start that works (the checkout around the plugin) takes the report away.
  expect(await launch(join(PLUGIN_DIR, 'launch.mjs'), ['--version'], bare, env).exit).toEqual({
    code: 0,
    signal: null,
  })
  expect(await doctor()).not.toContain('plugin:')
})
