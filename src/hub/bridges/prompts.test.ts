import { describe, expect, it } from 'vitest'
import { answerFor, buttonData, outcomeLine, parseButtonData, promptMessage } from './prompts.js'

describe('prompts on a phone', () => {
  it('reads back every button it made, within Telegram’s 64 bytes, and nothing else', () => {
    for (const [verb, option] of [['allow'], ['deny'], ['more'], ['option', 7]] as const) {
      const data = buttonData(verb, 'bqzmx', option)
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64)
      expect(parseButtonData(data)).toEqual({ verb, code: 'bqzmx', option: option ?? null })
    }
    expect(parseButtonData('sb:a:bqzml')).toBeNull() // l is never in a code
    expect(parseButtonData('perm:allow:bqzmx')).toBeNull()
    expect(parseButtonData('sb:x:bqzmx')).toBeNull()
  })

  it('gives a question one button per option, and the press records that option', () => {
    const input = {
      questions: [{ question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
    }
    const { text, buttons } = promptMessage('question', { id: 'bqzmx', session: 'work', input })
    expect(text).toContain('Which database?')
    expect(buttons.map((row) => row.map((b) => b.text))).toEqual([['SQLite'], ['Postgres'], ['Dismiss']])
    const press = parseButtonData(buttons[1]?.[0]?.data as string)
    expect(answerFor('question', { input }, 'option', press?.option ?? null, 'ann')).toEqual({
      behavior: 'allow',
      answers: { 'Which database?': 'Postgres' },
    })
    expect(answerFor('question', { input }, 'option', 9, 'ann')).toBeNull()
    expect(answerFor('permission', {}, 'option', 0, 'ann')).toBeNull()
  })

  it('says how a prompt ended and who ended it', () => {
    expect(outcomeLine({ behavior: 'allow' }, 'ann (telegram)')).toBe('✅ Allowed by ann (telegram)')
    expect(outcomeLine({ behavior: 'deny' }, 'cli')).toBe('❌ Denied by cli')
    expect(outcomeLine({ behavior: 'allow', answers: { q: 'Postgres' } }, 'ann')).toBe(
      '✅ Answered "Postgres" by ann',
    )
  })

  it('shows a permission prompt’s text without the typed-answer suffix twice', () => {
    const { text, buttons } = promptMessage('permission', {
      id: 'bqzmx',
      session: 'work',
      tool_name: 'Bash',
      text: 'work: Claude wants to run Bash: ls — reply "yes bqzmx" or "no bqzmx"',
    })
    expect(text.split('yes bqzmx')).toHaveLength(2)
    expect(buttons.flat().map((b) => b.text)).toEqual(['See more', 'Allow', 'Deny'])
  })
})
