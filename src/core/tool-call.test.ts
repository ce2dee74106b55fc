import { expect, it, vi } from 'vitest'
import * as z from 'zod'
import { invalid } from './errors.js'
import { callTool, INVALID_PARAMS, listTools, ProtocolError, textResult, tool } from './tool-call.js'

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

/** How callTool refused a call as a whole: the JSON-RPC error's code and line. */
async function refused(params: unknown) {
  const err = await callTool(table, params).then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof ProtocolError)) throw new Error(`not refused: ${String(err)}`)
  return { code: err.code, message: err.message }
}

it('answers a call with the handler’s result once its arguments hold', async () => {
  expect(await callTool(table, { name: 'echo', arguments: { text: 'hi' } })).toEqual({
    content: [{ type: 'text', text: 'hi' }],
  })
})

it('refuses a name it has not, inherited ones too, as invalid params naming the tools it has', async () => {
  for (const name of ['fly', 'toString', 'constructor', '__proto__'])
    expect(await refused({ name, arguments: {} })).toEqual({
      code: INVALID_PARAMS,
      message: `unknown tool ${JSON.stringify(name)}; the tools are echo, failing, refusing`,
    })
})

it('refuses params that are no tools/call in one line: no name, arguments that are no object', async () => {
  const nameNeeded = { code: INVALID_PARAMS, message: 'tools/call needs params.name (a string)' }
  for (const params of [undefined, null, 'echo', {}, { name: 7 }, { arguments: {} }])
    expect(await refused(params), JSON.stringify(params)).toEqual(nameNeeded)
  for (const args of ['text=hi', ['hi'], null, 3])
    expect(await refused({ name: 'echo', arguments: args }), JSON.stringify(args)).toEqual({
      code: INVALID_PARAMS,
      message: 'tools/call needs params.arguments to be an object (the tool’s arguments by name)',
    })
})

it('answers arguments the tool refuses with a result the model reads, not a protocol error', async () => {
  expect(await callTool(table, { name: 'echo', arguments: { text: '' } })).toMatchObject({
    isError: true,
    content: [{ text: 'echo: text: say something' }],
  })
  // No arguments are no arguments: the tool's schema says whether it needs any.
  expect(await callTool(table, { name: 'echo' })).toMatchObject({
    isError: true,
    content: [{ text: expect.stringMatching(/^echo: text: /) }],
  })
  // Inherited keys are no arguments.
  expect(
    await callTool(table, JSON.parse('{"name":"echo","arguments":{"__proto__":{"text":"hi"}}}')),
  ).toMatchObject({
    isError: true,
  })
})

it('tells a fault apart from a refusal: both answer in one line, only the fault is reported', async () => {
  const onFault = vi.fn()
  expect(await callTool(table, { name: 'refusing' }, onFault)).toMatchObject({
    content: [{ text: 'refusing: not now' }],
  })
  expect(onFault).not.toHaveBeenCalled()
  expect(await callTool(table, { name: 'failing', arguments: {} }, onFault)).toMatchObject({
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
