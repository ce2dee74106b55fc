// Claude Code's settings.json as `install claude --hooks` leaves it: every event's hook in, once, and
// `--remove` taking out exactly that, so the file is byte for byte what it was; replaced whole,
// owner-only, never through a link, and holding no secret.
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { CLAUDE_HOOK_EVENTS } from '../core/claude-hooks.js'
import { addHooks, hookFor, hookSocket, installedHooks, removeHooks } from './claude-settings.js'

let dir: string
let file: string
const target = {
  via: 'socket',
  curl: '/usr/bin/curl',
  socketPath: "/home/o'neil/.switchboard/hub-7420.sock",
  waitSeconds: 300,
} as const

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'claude-settings-'))
  file = join(dir, 'settings.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A person's settings: other hooks on the same events, other keys, a tab-indented file. */
const THEIRS = `${JSON.stringify(
  {
    model: 'opus',
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-bash' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'say done', timeout: 5 }] }],
      PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }],
    },
    permissions: { allow: ['Bash(ls:*)'] },
  },
  null,
  '\t',
)}\n`

it('installs a hook for every event beside the person’s own, and removes exactly those', () => {
  writeFileSync(file, THEIRS)
  addHooks(file, target)
  const settings = JSON.parse(readFileSync(file, 'utf8'))
  expect(Object.keys(settings.hooks)).toEqual([
    'PreToolUse',
    'Stop',
    'PostToolUse',
    'PermissionRequest',
    'PermissionDenied',
    'Notification',
    'SessionStart',
    'SessionEnd',
    'UserPromptSubmit',
  ])
  // PreToolUse on every tool, beside theirs: it lets through a retry operators allowed after auto mode denied it.
  expect(settings.hooks.PreToolUse).toEqual([
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-bash' }] },
    { matcher: '*', hooks: [hookFor('PreToolUse', target)] },
  ])
  expect(settings.hooks.PreToolUse[1].hooks[0].timeout).toBe(10)
  expect(settings.hooks.PermissionRequest).toEqual([{ hooks: [hookFor('PermissionRequest', target)] }])
  // A denied call waits for operators as a dialog does.
  expect(settings.hooks.PermissionDenied).toEqual([
    { matcher: '*', hooks: [hookFor('PermissionDenied', target)] },
  ])
  expect(settings.hooks.PermissionDenied[0].hooks[0].timeout).toBe(330)
  // curl posts the input down the home's socket: no URL of a port, no token.
  expect(settings.hooks.PermissionRequest[0].hooks[0]).toEqual({
    type: 'command',
    command:
      `[ "\${SWITCHBOARD_DRIVEN:-}" = 1 ] || '/usr/bin/curl' -sf --max-time 330 ` +
      `--unix-socket '/home/o'\\''neil/.switchboard/hub-7420.sock' -H 'content-type: application/json' ` +
      `-H 'x-switchboard-timeout: 330' -H "x-switchboard-name: \${SWITCHBOARD_CHANNEL_NAME:-}" ` +
      `--data-binary @- 'http://switchboard/api/claude-hooks/PermissionRequest' 2>/dev/null || true`,
    timeout: 330,
  })
  expect(hookSocket(settings.hooks.PermissionRequest[0].hooks[0])).toBe(target.socketPath)
  expect(settings.hooks.Stop[1].hooks[0].timeout).toBe(10)
  // A session's start is the command that starts the hub when none runs.
  expect(settings.hooks.SessionStart[0].hooks[0]).toEqual({
    type: 'command',
    command: 'switchboard hook SessionStart',
    timeout: 30,
  })
  expect(Object.keys(installedHooks(file)).sort()).toEqual([...CLAUDE_HOOK_EVENTS].sort())
  // Installed again (another port): still one entry per event, the new one.
  addHooks(file, { ...target, socketPath: '/h/hub-7999.sock' })
  const again = JSON.parse(readFileSync(file, 'utf8'))
  expect(again.hooks.PermissionRequest).toHaveLength(1)
  expect(hookSocket(again.hooks.PermissionRequest[0].hooks[0])).toBe('/h/hub-7999.sock')

  expect(removeHooks(file)).toBe(CLAUDE_HOOK_EVENTS.length)
  expect(readFileSync(file, 'utf8')).toBe(THEIRS)
  expect(removeHooks(file)).toBe(0)
})

it('takes a file with no hooks back to what it was, and the older command entries out too', () => {
  const plain = '{\n    "model": "sonnet"\n}'
  writeFileSync(file, plain)
  addHooks(file, { via: 'command', waitSeconds: 300 })
  expect(JSON.parse(readFileSync(file, 'utf8')).hooks.Notification[0].hooks[0]).toEqual({
    type: 'command',
    command: 'switchboard hook Notification',
    timeout: 10,
  })
  removeHooks(file)
  expect(readFileSync(file, 'utf8')).toBe(plain)

  const old = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'switchboard hook' }] }] } }
  writeFileSync(file, JSON.stringify(old))
  expect(removeHooks(file)).toBe(1)
  expect(readFileSync(file, 'utf8')).toBe('{}')
})

/** What the first install of the hooks wrote for questions and plans, beside the person's own. */
function withEarlierPreToolUse(): string {
  const settings = JSON.parse(THEIRS)
  settings.hooks.PreToolUse.push({
    matcher: 'AskUserQuestion|ExitPlanMode',
    hooks: [
      {
        type: 'http',
        url: 'http://127.0.0.1:7420/api/claude-hooks/PreToolUse',
        headers: { authorization: 'Bearer sbh_test', 'x-switchboard-timeout': '330' },
        timeout: 330,
      },
    ],
  })
  return `${JSON.stringify(settings, null, '\t')}\n`
}

it('replaces the PreToolUse entry an earlier install wrote for questions and plans, and removes it', () => {
  writeFileSync(file, withEarlierPreToolUse())
  expect(installedHooks(file).PreToolUse).toBeDefined()
  addHooks(file, target)
  const settings = JSON.parse(readFileSync(file, 'utf8'))
  expect(settings.hooks.PreToolUse).toEqual([
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-bash' }] },
    { matcher: '*', hooks: [hookFor('PreToolUse', target)] },
  ])
  removeHooks(file)
  expect(readFileSync(file, 'utf8')).toBe(THEIRS)

  // Not installed again: remove alone takes it out too.
  writeFileSync(file, withEarlierPreToolUse())
  expect(removeHooks(file)).toBe(1)
  expect(readFileSync(file, 'utf8')).toBe(THEIRS)
})

it('refuses a settings file that is not JSON, and changes nothing', () => {
  writeFileSync(file, '{ "model": ')
  expect(() => addHooks(file, target)).toThrow(/not valid JSON/)
  expect(readFileSync(file, 'utf8')).toBe('{ "model": ')
})

it('replaces an earlier install’s HTTP hooks, token and all, when installing again', () => {
  const earlier = {
    hooks: {
      Stop: [
        {
          hooks: [
            {
              type: 'http',
              url: 'http://127.0.0.1:7420/api/claude-hooks/Stop',
              headers: { authorization: 'Bearer sbh_secret', 'x-switchboard-timeout': '10' },
              timeout: 10,
            },
          ],
        },
      ],
    },
  }
  writeFileSync(file, JSON.stringify(earlier))
  addHooks(file, target)
  const text = readFileSync(file, 'utf8')
  expect(text).not.toContain('sbh_secret')
  expect(text).not.toContain('127.0.0.1:7420')
  expect(JSON.parse(text).hooks.Stop).toHaveLength(1)
})

it('writes the file whole and owner-only, and never through a symbolic link', () => {
  writeFileSync(file, THEIRS, { mode: 0o644 })
  addHooks(file, target)
  expect(statSync(file).mode & 0o777).toBe(0o600)
  // A link planted where the settings file should be: refused, and its target untouched.
  const elsewhere = join(dir, 'elsewhere.json')
  writeFileSync(elsewhere, '{}')
  const linked = join(dir, 'linked.json')
  symlinkSync(elsewhere, linked)
  expect(() => addHooks(linked, target)).toThrow(/symbolic link/)
  expect(() => removeHooks(linked)).toThrow(/symbolic link/)
  expect(readFileSync(elsewhere, 'utf8')).toBe('{}')
  expect(lstatSync(linked).isSymbolicLink()).toBe(true)
})
