import { describe, expect, it } from 'vitest'
import { ControlChannel, ControlClosedError, ControlError, ControlTimeoutError } from './control.js'
import type { HostLine, PermissionAnswer } from './messages.js'

function channel(canUseTool: () => Promise<PermissionAnswer> = async () => ({ behavior: 'allow' })) {
  const written: HostLine[] = []
  const c = new ControlChannel(async (line) => void written.push(line), { canUseTool }, 200)
  return { c, written }
}

const idOf = (line: HostLine | undefined) => (line as { request_id: string }).request_id

describe('control channel', () => {
  it('matches responses to requests by id', async () => {
    const { c, written } = channel()
    const a = c.setModel('m1')
    const b = c.getSettings()
    c.handle({
      type: 'control_response',
      response: { subtype: 'success', request_id: idOf(written[1]), response: { settings: { x: 1 } } },
    })
    c.handle({ type: 'control_response', response: { subtype: 'success', request_id: idOf(written[0]) } })
    expect(await b).toEqual({ settings: { x: 1 } })
    expect(await a).toEqual({})
    expect(written[0]).toMatchObject({
      type: 'control_request',
      request: { subtype: 'set_model', model: 'm1' },
    })
  })

  it('surfaces error responses as typed errors, and times out silence', async () => {
    const { c, written } = channel()
    const failing = c.request('bogus')
    c.handle({
      type: 'control_response',
      response: { subtype: 'error', request_id: idOf(written[0]), error: 'Unsupported' },
    })
    await expect(failing).rejects.toBeInstanceOf(ControlError)
    await expect(c.interrupt()).rejects.toBeInstanceOf(ControlTimeoutError)
  })

  it('answers can_use_tool with the handler verdict, and refuses requests it does not know', async () => {
    const { c, written } = channel(async () => ({ behavior: 'deny' as const, message: 'nope' }))
    c.handle({
      type: 'control_request',
      request_id: 'r1',
      request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {} },
    })
    c.handle({
      type: 'control_request',
      request_id: 'r2',
      request: { subtype: 'hook_callback', callback_id: 'x' },
    })
    await new Promise((r) => setTimeout(r, 10))
    expect(written).toContainEqual({
      type: 'control_response',
      response: { subtype: 'success', request_id: 'r1', response: { behavior: 'deny', message: 'nope' } },
    })
    expect(written).toContainEqual({
      type: 'control_response',
      response: { subtype: 'error', request_id: 'r2', error: 'unsupported request: hook_callback' },
    })
  })

  it('does not answer a permission request the CLI cancelled', async () => {
    let release: () => void = () => {}
    const { c, written } = channel(
      () => new Promise((resolve) => (release = () => resolve({ behavior: 'allow' }))),
    )
    c.handle({
      type: 'control_request',
      request_id: 'r1',
      request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {} },
    })
    c.handle({ type: 'control_cancel_request', request_id: 'r1' })
    release()
    await new Promise((r) => setTimeout(r, 10))
    expect(written).toEqual([])
  })

  it('fails what is waiting at once when the process is gone', async () => {
    const { c } = channel()
    const waiting = c.mcpStatus()
    c.close('exited')
    await expect(waiting).rejects.toBeInstanceOf(ControlClosedError)
    await expect(c.interrupt()).rejects.toBeInstanceOf(ControlClosedError)
  })

  it('names the kind of each failure: silence is unavailable; a refusal or a CLI that is gone, a conflict', async () => {
    const { c, written } = channel()
    const refused = c.request('bogus')
    c.handle({
      type: 'control_response',
      response: { subtype: 'error', request_id: idOf(written[0]), error: 'Unsupported' },
    })
    await expect(refused).rejects.toMatchObject({ kind: 'conflict', message: 'bogus: Unsupported' })
    await expect(c.setModel('m1')).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'set_model: no answer within 200 ms',
    })
    c.close('the CLI exited (1)')
    await expect(c.interrupt()).rejects.toMatchObject({ kind: 'conflict', message: 'the CLI exited (1)' })
  })
})
