// The one way a tool call is written as text: what would run, readable, whole up to a limit and
// visibly cut beyond it.
import { describe, expect, it } from 'vitest'
import { deniedText, previewedInput, promptText, toolCallLine, toolCallText } from './tool-call-text.js'

describe('a tool call on one line', () => {
  it('is a Bash command as `$ …`, its line breaks shown, and a read as its path', () => {
    expect(toolCallLine('Bash', { command: 'cd app &&\nnpm test' }, null)).toBe('$ cd app &&\\nnpm test')
    expect(toolCallLine('Read', { file_path: '/srv/.env' }, null)).toBe('/srv/.env')
    expect(toolCallLine('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, null)).toBe(
      'a.ts\\n- x\\n+ y',
    )
  })

  it('reads Gemini CLI’s and OpenCode’s shell, edit, write and read tools as Claude Code’s, not as JSON', () => {
    expect(toolCallLine('run_shell_command', { command: 'rm -rf build', description: 'clean' }, null)).toBe(
      '$ rm -rf build',
    )
    expect(toolCallLine('bash', { command: 'npm test', workdir: '/srv' }, null)).toBe('$ npm test')
    expect(
      toolCallLine(
        'replace',
        { file_path: 'a.ts', old_string: 'x', new_string: 'y', instruction: 'z' },
        null,
      ),
    ).toBe('a.ts\\n- x\\n+ y')
    expect(
      toolCallLine('edit', { filePath: 'b.ts', oldString: 'p', newString: 'q', replaceAll: true }, null),
    ).toBe('b.ts (every occurrence)\\n- p\\n+ q')
    expect(toolCallLine('write_file', { file_path: 'c.md', content: 'one\ntwo\n' }, null)).toBe(
      'c.md (2 lines)',
    )
    expect(toolCallLine('read', { filePath: '/srv/.env' }, null)).toBe('/srv/.env')
  })

  it('reads a relay’s preview when it is whole JSON, and shows one cut short as it came', () => {
    const preview = JSON.stringify({ command: 'ls' })
    expect(toolCallText('Bash', previewedInput(preview), preview)).toBe('Claude wants to run Bash: $ ls')
    expect(previewedInput('{"command":"ls …')).toBeNull()
    expect(toolCallText('Bash', null, '{"command":"ls …')).toBe('Claude wants to run Bash: {"command":"ls …')
  })

  it('cuts visibly, never silently', () => {
    const long = `$ ${'x'.repeat(700)}`
    expect(toolCallLine('Bash', { command: 'x'.repeat(700) }, null)).toBe(
      `${long.slice(0, 600)}… [cut: ${long.length - 600} more characters]`,
    )
  })
})

describe('a call auto mode denied', () => {
  it('says what was denied where and why: the command itself for a shell call, the call’s line for another tool', () => {
    const bash = { tool_name: 'Bash', input: { command: 'rm -rf build' }, project: 'api' }
    expect(promptText({ ...bash, denied_reason: 'Deletes build output' })).toBe(
      'Auto mode denied Bash `rm -rf build` in api: Deletes build output',
    )
    expect(
      deniedText({ tool_name: 'Read', input: { file_path: '/srv/.env' }, denied_reason: 'Secrets' }),
    ).toBe('Auto mode denied Read `/srv/.env`: Secrets')
    // Without a reason it is still a denied call, never "Claude wants to run".
    expect(promptText({ ...bash, denied_reason: '' })).toBe('Auto mode denied Bash `rm -rf build` in api')
    expect(deniedText({ ...bash, input: { command: 'x'.repeat(700) } })).toContain(
      '[cut: 100 more characters]',
    )
  })
})
