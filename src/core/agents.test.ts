import { describe, expect, it } from 'vitest'
import { namedWithAgent } from './agents.js'

describe('namedWithAgent', () => {
  it('names another agent beside the session, and leaves Claude Code’s and unknown names as they are', () => {
    expect(namedWithAgent('api · fix it', 'codex')).toBe('api · fix it (Codex)')
    expect(namedWithAgent('api · fix it', 'claude')).toBe('api · fix it')
    expect(namedWithAgent('api · fix it', undefined)).toBe('api · fix it')
    expect(namedWithAgent('api · fix it', 'somebody-else')).toBe('api · fix it')
  })
})
