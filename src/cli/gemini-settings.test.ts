// Gemini CLI's settings.json as `install gemini --hooks` leaves it: Switchboard's BeforeTool hook in
// once, after the person's own, for the tools that change things, printing `ask` whenever no answer
// comes; `--remove` takes out exactly that and leaves the file as it was, byte for byte.
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { addGeminiHook, GEMINI_MATCHER, removeGeminiHook } from './gemini-settings.js'

let dir: string
let file: string
const command = { via: 'command', waitSeconds: 300 } as const
const socket = {
  via: 'socket',
  curl: '/usr/bin/curl',
  socketPath: '/run/sb/hub.sock',
  waitSeconds: 60,
} as const

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gemini-settings-'))
  file = join(dir, 'settings.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A person's settings, laid out as Gemini writes them (JSON, here indented by four): a model,
 * privacy, a BeforeTool hook of their own and an AfterTool one.
 */
const theirs = `${JSON.stringify(
  {
    model: { name: 'gemini-2.5-pro' },
    privacy: { usageStatisticsEnabled: false },
    hooks: {
      BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', name: 'lint', command: 'lint-it' }] }],
      AfterTool: [{ hooks: [{ type: 'command', command: 'log-it' }] }],
    },
  },
  null,
  4,
)}\n`
const plain = '{\n  "model": {\n    "name": "gemini-2.5-pro"\n  }\n}\n'

type Group = { matcher?: string; hooks: Record<string, unknown>[] }
type Settings = { hooks: { BeforeTool: Group[]; AfterTool?: Group[] } }
const read = () => JSON.parse(readFileSync(file, 'utf8')) as Settings

it('adds the hook after the person’s own, for the tools that change things, and once only', () => {
  writeFileSync(file, theirs)
  addGeminiHook(file, command)
  const groups = read().hooks.BeforeTool
  expect(groups).toEqual([
    { matcher: 'write_file', hooks: [{ type: 'command', name: 'lint', command: 'lint-it' }] },
    {
      matcher: GEMINI_MATCHER,
      hooks: [
        {
          type: 'command',
          name: 'switchboard',
          command: 'switchboard hook BeforeTool --agent gemini',
          // Milliseconds in Gemini, past the hub's wait (300 s) and the request's margin.
          timeout: 340_000,
        },
      ],
    },
  ])
  expect(read().hooks.AfterTool).toEqual([{ hooks: [{ type: 'command', command: 'log-it' }] }])
  // Owner-only: the file says which programs Gemini runs before its tools.
  expect(statSync(file).mode & 0o777).toBe(0o600)
  // A second install (through the socket now) replaces the first in place.
  addGeminiHook(file, socket)
  expect(read().hooks.BeforeTool).toHaveLength(2)
  expect(read().hooks.BeforeTool[1]?.hooks[0]?.command).toContain('--unix-socket')
})

it('gates shell commands and file writes and edits, and lets the read-only tools go on', () => {
  const gated = new RegExp(GEMINI_MATCHER)
  for (const tool of ['run_shell_command', 'write_file', 'replace']) expect(gated.test(tool)).toBe(true)
  for (const tool of ['read_file', 'list_directory', 'glob', 'grep_search', 'replace_all_files'])
    expect(gated.test(tool)).toBe(false)
})

it('writes a socket hook that says `ask` when curl gets no answer, and ends before Gemini gives up on it', () => {
  addGeminiHook(file, socket)
  const hook = read().hooks.BeforeTool[0]?.hooks[0] as { command: string; timeout: number }
  expect(hook.command).toContain("-H 'x-switchboard-agent: gemini'")
  expect(hook.command).toContain("'http://switchboard/api/claude-hooks/BeforeTool'")
  expect(hook.command).toMatch(/ 2>\/dev\/null \|\| echo '\{"decision":"ask"\}'$/)
  // curl gives up at 90 s (the hub's 60 s wait and its margin); Gemini's own timeout comes later.
  expect(hook.command).toContain('--max-time 90')
  expect(hook.timeout).toBe(100_000)
})

it('says nothing in a Gemini session the hub drives, whose prompts reach the hub over ACP, and `ask` elsewhere with no hub', () => {
  addGeminiHook(file, { ...socket, socketPath: join(dir, 'no-hub.sock') })
  const hook = read().hooks.BeforeTool[0]?.hooks[0] as { command: string }
  // Stdin is empty: a driven hook ends before it would read it, and writing to it then raced the exit.
  const run = (env: Record<string, string>) =>
    execFileSync('/bin/sh', ['-c', hook.command], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', ...env },
    })
      .toString()
      .trim()
  // No hub: Gemini's own dialog decides.
  expect(run({})).toBe('{"decision":"ask"}')
  // Driven: no objection, so Gemini asks its ACP client (the hub) once, not the hook too.
  expect(run({ SWITCHBOARD_DRIVEN: '1' })).toBe('')
})

it('takes out the hook and leaves a file Gemini wrote as it was, byte for byte', () => {
  writeFileSync(file, theirs)
  addGeminiHook(file, socket)
  expect(removeGeminiHook(file)).toBe(1)
  expect(readFileSync(file, 'utf8')).toBe(theirs)
  expect(removeGeminiHook(file)).toBe(0)
})

it('keeps the person’s hooks that share a group with Switchboard’s, and leaves no empty hooks behind', () => {
  writeFileSync(file, plain)
  addGeminiHook(file, command)
  const settings = read()
  settings.hooks.BeforeTool[0]?.hooks.push({ type: 'command', command: 'mine-too' })
  writeFileSync(file, JSON.stringify(settings, null, 2))
  removeGeminiHook(file)
  expect(read().hooks.BeforeTool).toEqual([
    { matcher: GEMINI_MATCHER, hooks: [{ type: 'command', command: 'mine-too' }] },
  ])
  writeFileSync(file, plain)
  addGeminiHook(file, command)
  removeGeminiHook(file)
  expect(readFileSync(file, 'utf8')).toBe(plain)
})

it('refuses a settings file that is a link, and one that is not JSON, saying which file', () => {
  const real = join(dir, 'real.json')
  writeFileSync(real, '{}\n')
  symlinkSync(real, file)
  expect(() => addGeminiHook(file, command)).toThrow(/symbolic link/)
  expect(lstatSync(file).isSymbolicLink()).toBe(true)
  rmSync(file)
  writeFileSync(file, '{ "model": ')
  expect(() => addGeminiHook(file, command)).toThrow(`${file}: not valid JSON`)
})
