// The entry points that need no hub: the NDJSON reader fed arbitrary chunkings of arbitrary bytes,
// and the hub protocol's schema fed arbitrary frames.
import { describe, it } from 'vitest'
import { checkHubFrame, checkNdjson } from './checks.js'
import { describeNdjson, preview } from './describe.js'
import { anyKind, type Frame, frames, ndjsonCases } from './inputs.js'
import { holds } from './property.js'

const frameText = (f: Frame) => ('text' in f ? f.text : String(f.bytes))
const fails = (failure: string | null) => {
  if (failure) throw new Error(failure)
}

describe('in-process entry points', () => {
  it('NDJSON reader: every valid line comes out once, in order, however the bytes are cut', async () => {
    await holds(ndjsonCases, (c) => fails(checkNdjson(c)), describeNdjson, 1_000)
  })

  it('hub protocol schema: never throws, explains refusals, accepts what it accepted again', async () => {
    const { huge: _, ...small } = frames
    await holds(
      anyKind(small),
      (f) => fails(checkHubFrame(frameText(f))),
      (f) => preview(frameText(f)),
      1_000,
    )
  })
})
