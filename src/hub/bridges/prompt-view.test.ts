// A tool call as a phone shows it: what it does, whichever agent's tool it is, never raw JSON.
import { expect, it } from 'vitest'
import { promptView } from './prompt-view.js'

it('shows a Gemini CLI or OpenCode shell command as a `$` code block and an edit as a diff, as Claude Code’s', () => {
  const bash = promptView('Bash', { command: 'npm test' }, null, 600)
  expect(promptView('run_shell_command', { command: 'npm test', description: 'tests' }, null, 600)).toBe(bash)
  expect(promptView('bash', { command: 'npm test', workdir: '/srv' }, null, 600)).toBe(bash)
  const edit = promptView('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, null, 600)
  expect(promptView('replace', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, null, 600)).toBe(edit)
  expect(promptView('edit', { filePath: 'a.ts', oldString: 'x', newString: 'y' }, null, 600)).toBe(edit)
  expect(edit).toContain('- x')
})

it('shows any other tool one field a line', () => {
  expect(promptView('glob', { pattern: '*.ts' }, null, 600)).toBe('pattern: \\*.ts')
})
