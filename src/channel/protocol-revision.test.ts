import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { expect, it } from 'vitest'
import { CHANNEL_REVISIONS, channelRevision } from './protocol-revision.js'

it('speaks no revision the SDK’s server does not: that one would be answered with the SDK’s newest', () => {
  for (const revision of CHANNEL_REVISIONS) expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(revision)
})

it('answers a revision it speaks as offered, and any other with its newest, never the stateless one', () => {
  expect(channelRevision('2025-06-18')).toBe('2025-06-18')
  for (const offered of ['2026-07-28', '2099-01-01', undefined, 42])
    expect(channelRevision(offered)).toBe('2025-11-25')
  expect(CHANNEL_REVISIONS).not.toContain('2026-07-28')
})
