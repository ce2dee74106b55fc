import { expect, it } from 'vitest'
import { checkCliLine, cliLineSchema } from './messages.js'

it('checks CLI lines by the same rule as the schema', () => {
  const samples: unknown[] = [
    { type: 'assistant', message: {} },
    { type: 'x', extra: [1, 2] },
    { type: '' },
    { type: 3 },
    { no: 'type' },
    [{ type: 'a' }],
    null,
    'text',
    42,
  ]
  for (const sample of samples) expect(checkCliLine(sample).ok).toBe(cliLineSchema.safeParse(sample).success)
})
