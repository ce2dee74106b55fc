// The hub's messages to people, as the store holds them: each kind, as the hub writes it now and as
// older hubs wrote it, reads back as its message; anything else is refused in one line saying why.
import { describe, expect, it } from 'vitest'
import { OUTBOX_KINDS, readOutboxMessage } from './outbox.js'

/** Rows as the outbox table holds them (kind, and body as JSON), one or more per kind. */
const STORED: [kind: string, body: string][] = [
  [
    'reply',
    '{"chat_id":"chat_1","text":"done","from":"api","from_name":"api · fix the flaky test","at":1700000000000,"reply_to":"17","files":["out.png"],"folder":"/srv/api"}',
  ],
  ['reply', '{"chat_id":"chat_1","text":"done","from":"api","at":1700000000000}'],
  ['paired', '{"text":"Paired as an operator: your messages now reach Claude.","operator":true}'],
  // A channel's relayed prompt: a preview of the input.
  [
    'permission',
    '{"id":"bqzmx","owner":"api","session":"api","session_name":"api","tool_name":"Bash","input_preview":"{\\"command\\":\\"ls\\"}","text":"api: Claude wants to run Bash: $ ls — reply \\"yes bqzmx\\" or \\"no bqzmx\\""}',
  ],
  // A driven session's, with the rest of its request (a terminal's folder).
  [
    'question',
    '{"id":"qwert","decision":"dec_1","tool_name":"AskUserQuestion","input":{"questions":[{"question":"Which?","options":[{"label":"A"}]}]},"cwd":"/srv/api","owner":"session:ses_1","session":"session:ses_1","session_name":"api · plan","text":"api · plan: asks — reply \\"yes qwert\\" or \\"no qwert\\""}',
  ],
  // From before owners and names were said.
  [
    'plan',
    '{"id":"asdfg","tool_name":"ExitPlanMode","input":{"plan":"# Plan"},"session":"ses_1","text":"ses_1: plan"}',
  ],
  // A call auto mode denied, from a terminal's PermissionDenied hook.
  [
    'denied',
    '{"id":"zxcvb","decision":"dec_2","tool_name":"Bash","input":{"command":"rm -rf build"},"denied_reason":"Deletes build output","owner":"c0ffee","session":"c0ffee","session_name":"api","text":"api: Auto mode denied Bash `rm -rf build` in api: Deletes build output — reply \\"yes zxcvb\\" or \\"no zxcvb\\""}',
  ],
  [
    'decision',
    '{"id":"bqzmx","kind":"permission","owner":"api","session":"api","status":"answered","answer":{"behavior":"allow"},"answered_by":"olga"}',
  ],
  [
    'decision',
    '{"id":"bqzmx","kind":"question","session":"api","status":"cancelled","reason":"answered at the terminal"}',
  ],
  [
    'notice',
    '{"at":1700000000000,"id":"waiting:c0ffee","kind":"waiting","session":"c0ffee","session_name":"api","claude_session":"c0ffee","project":"api","cwd":"/srv/api","text":"api: Claude is waiting for you","started_by":{"kind":"webhook","source":"github","event":"evt_1"}}',
  ],
  [
    'notice',
    '{"at":1700000000000,"session":"api","session_name":"api","event":"evt_1","reason":"no channel","text":"api: event evt_1 is not in Claude\'s context"}',
  ],
  [
    'notice',
    '{"at":1700000000000,"routine":"alerts","run":"run_1","key":null,"session":"session:ses_1","session_name":"alerts","id":"run-ended:run_1","kind":"run-ended","state":"done","cost_usd":0.12,"turns":3,"outcome":null,"worktree":{"path":"/w","branch":null,"kept":true,"uncommitted":null},"text":"alerts: run run_1 done"}',
  ],
  ['thread-end', '{"session":"session:ses_1","text":"⏹ api ended: stopped"}'],
]

describe('an outbox item read back', () => {
  it('reads a stored item of every kind as its message, every field kept', () => {
    expect(new Set(STORED.map(([kind]) => kind))).toEqual(new Set(OUTBOX_KINDS))
    for (const [kind, body] of STORED) {
      const read = readOutboxMessage(kind, JSON.parse(body))
      expect(read, `${kind}: ${body}`).toEqual({ ok: true, message: { kind, body: JSON.parse(body) } })
    }
  })

  it('refuses a kind it does not know, naming it and the kinds there are', () => {
    expect(readOutboxMessage('verdict', { text: 'hi' })).toEqual({
      ok: false,
      reason:
        'unknown outbox item kind "verdict" (known: reply, paired, permission, question, plan, denied, decision, notice, thread-end)',
    })
  })

  it('refuses a body that is not its kind’s, naming the field', () => {
    const read = readOutboxMessage('reply', { chat_id: 'chat_1', text: 7, from: 'api', at: 1 })
    expect(read).toMatchObject({ ok: false })
    expect(!read.ok && read.reason).toMatch(/^a "reply" item's body\.text: .*expected string/)
    expect(readOutboxMessage('paired', 'not json')).toMatchObject({
      ok: false,
      reason: /^a "paired" item's body: /,
    })
  })
})
