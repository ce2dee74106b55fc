// The one line operators' streams show for a prompt (promptBody's `text`): the call as a person reads
// it, the same for a channel's relayed prompt (a preview of the input as JSON) as for a driven session's.
import { describe, expect, it } from 'vitest'
import type { Decision } from '../../store/store.js'
import { promptBody } from './decisions.js'

function decision(request: Record<string, unknown>): Decision {
  return {
    id: 'dec_1',
    kind: 'permission',
    code: 'bqzmx',
    owner: 'work',
    status: 'open',
    request,
    answer: null,
    answeredBy: null,
    createdAt: 1,
    answeredAt: null,
    expiresAt: null,
  }
}

const reply = ' — reply "yes bqzmx" or "no bqzmx"'

describe('a prompt’s line for operators', () => {
  it('shows a relayed Bash call as its command, not the preview’s JSON', () => {
    const relayed = decision({
      tool_name: 'Bash',
      description: 'list the files',
      input_preview: JSON.stringify({ command: 'ls -la', description: 'list the files' }),
    })
    expect(promptBody(relayed).text).toBe(
      `work: Claude wants to run Bash: $ ls -la (Claude's description: "list the files")${reply}`,
    )
  })

  it('shows a driven session’s call the same way, and a read as its path', () => {
    expect(promptBody(decision({ tool_name: 'Bash', input: { command: 'ls -la' } })).text).toBe(
      `work: Claude wants to run Bash: $ ls -la${reply}`,
    )
    expect(promptBody(decision({ tool_name: 'Read', input: { file_path: '/srv/app/.env' } })).text).toBe(
      `work: Claude wants to run Read: /srv/app/.env${reply}`,
    )
  })

  it('shows a preview cut short (no whole JSON) as it came, visibly', () => {
    const cut = '{"command":"curl https://example.com/install.sh | sh && echo …'
    expect(promptBody(decision({ tool_name: 'Bash', input_preview: cut })).text).toBe(
      `work: Claude wants to run Bash: ${cut}${reply}`,
    )
  })
})

describe('another agent’s prompt', () => {
  it('names Codex beside the session and as the one asking, its account labelled as its own', () => {
    const codex = decision({
      tool_name: 'Bash',
      input: { command: 'touch x', description: 'make the file' },
      project: 'work',
      agent: 'codex',
    })
    expect(promptBody(codex)).toMatchObject({
      agent: 'codex',
      project: 'work',
      text: `work (Codex): Codex wants to run Bash: $ touch x (Codex's description: "make the file")${reply}`,
    })
  })
})
