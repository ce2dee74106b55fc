import { describe, expect, it } from 'vitest'
import { namedWithAgent, otherAgentLabel, speakerOf } from './agents.js'

describe('namedWithAgent', () => {
  it('names another agent beside the session, and leaves Claude Code’s and unknown names as they are', () => {
    expect(namedWithAgent('api · fix it', 'codex')).toBe('api · fix it (Codex)')
    expect(namedWithAgent('api · fix it', 'gemini')).toBe('api · fix it (Gemini CLI)')
    expect(namedWithAgent('api · fix it', 'claude')).toBe('api · fix it')
    expect(namedWithAgent('api · fix it', undefined)).toBe('api · fix it')
    expect(namedWithAgent('api · fix it', 'somebody-else')).toBe('api · fix it')
  })
})

describe('otherAgentLabel', () => {
  it('names every agent but Claude Code, and nothing for what names no agent', () => {
    expect(otherAgentLabel('codex')).toBe('Codex')
    expect(otherAgentLabel('gemini')).toBe('Gemini CLI')
    expect(otherAgentLabel('claude')).toBeNull()
    expect(otherAgentLabel(undefined)).toBeNull()
    expect(otherAgentLabel('somebody-else')).toBeNull()
  })
})

describe('speakerOf', () => {
  it('says which model asks: Codex, Gemini, and Claude for Claude Code or an agent it does not know', () => {
    expect(speakerOf('codex')).toBe('Codex')
    expect(speakerOf('gemini')).toBe('Gemini')
    expect(speakerOf('claude')).toBe('Claude')
    expect(speakerOf(undefined)).toBe('Claude')
  })
})
