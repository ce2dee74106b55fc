import { expect, it, vi } from 'vitest'
import { z } from 'zod'
import { invalid } from './errors.js'
import { callTool, listTools, textResult, tool } from './tool-call.js'

const echo = tool(
  { description: 'Echo', args: z.object({ text: z.string().min(1, 'say something') }) },
  async (a) => textResult(a.text),
)
const failing = tool({ description: 'Fails', args: z.object({}) }, async () => {
  throw new Error('disk on fire')
})
const refusing = tool({ description: 'Refuses', args: z.object({}) }, async () => {
  throw invalid('not now')
})
const table = { echo, failing, refusing }

it('answers a call with the handler’s result once its arguments hold', async () => {
  expect(await callTool(table, 'echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] })
})

it('answers a name it has not, inherited ones too, and a bad argument in one line', async () => {
  for (const name of ['fly', 'toString', 'constructor', '__proto__'])
    expect(await callTool(table, name, {})).toMatchObject({
      isError: true,
      content: [{ text: `unknown tool: ${name}` }],
    })
  expect(await callTool(table, 'echo', { text: '' })).toMatchObject({
    isError: true,
    content: [{ text: 'echo: text: say something' }],
  })
})

it('tells a fault apart from a refusal: both answer in one line, only the fault is reported', async () => {
  const onFault = vi.fn()
  expect(await callTool(table, 'refusing', undefined, onFault)).toMatchObject({
    content: [{ text: 'refusing: not now' }],
  })
  expect(onFault).not.toHaveBeenCalled()
  expect(await callTool(table, 'failing', {}, onFault)).toMatchObject({
    content: [{ text: 'failing: disk on fire' }],
  })
  expect(onFault).toHaveBeenCalledWith(expect.any(Error), 'failing')
})

it('lists each tool with the JSON Schema of the arguments it checks', () => {
  expect(listTools({ echo })).toEqual([
    {
      name: 'echo',
      description: 'Echo',
      inputSchema: expect.objectContaining({ type: 'object', required: ['text'] }),
    },
  ])
})
