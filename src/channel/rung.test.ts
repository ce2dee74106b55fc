import { expect, it } from 'vitest'
import { chooseRung } from './rung.js'

it('reads the rung from the client and from how Claude Code was started', () => {
  const claude = (...flags: string[]) => ['/usr/local/bin/claude', ...flags]
  expect(chooseRung('claude-code', null, claude('--channels', 'plugin:switchboard@x'))).toBe('channel')
  expect(chooseRung('claude-code', null, claude('--dangerously-load-development-channels', 'server:s'))).toBe(
    'channel',
  )
  expect(chooseRung('claude-code', null, claude('-p', '--mcp-config', 'm.json'))).toBe('message')
  expect(chooseRung('claude-code', null, null)).toBe('channel')
  expect(chooseRung('claude-code', null, ['/usr/bin/node', 'something'])).toBe('channel')
  expect(chooseRung('cursor-vscode', null, claude('--channels', 'x'))).toBe('message')
  expect(chooseRung('cursor-vscode', 'channel', null)).toBe('channel')
})
