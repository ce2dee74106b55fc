import { describe, expect, it } from 'vitest'
import { chunkText } from './chunk.js'

describe('chunkText', () => {
  it('keeps a short text whole', () => {
    expect(chunkText('hello', 10)).toEqual(['hello'])
  })

  it('cuts at the limit in length mode, losing nothing', () => {
    const text = 'a'.repeat(25)
    const chunks = chunkText(text, 10, 'length')
    expect(chunks).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)])
  })

  it('cuts at a paragraph, else a line, else a space in newline mode', () => {
    const paragraphs = `${'x'.repeat(12)}\n\n${'y'.repeat(12)}`
    expect(chunkText(paragraphs, 20)).toEqual(['x'.repeat(12), 'y'.repeat(12)])
    const words = 'one two three four five six seven'
    const chunks = chunkText(words, 12)
    expect(chunks.every((c) => c.length <= 12)).toBe(true)
    expect(chunks.join(' ')).toBe(words)
  })

  it('never makes a chunk over the limit, whatever the text', () => {
    const text = Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? '\n' : `w${i} `)).join('')
    for (const mode of ['length', 'newline'] as const)
      for (const chunk of chunkText(text, 50, mode)) expect(chunk.length).toBeLessThanOrEqual(50)
  })

  it('never cuts an emoji in half', () => {
    const text = '😀'.repeat(30)
    for (const mode of ['length', 'newline'] as const) {
      const chunks = chunkText(text, 7, mode)
      expect(chunks.join('')).toBe(text)
      for (const chunk of chunks) expect(chunk).toMatch(/^(😀)+$/)
    }
  })
})
