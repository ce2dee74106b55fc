// The entry points that need no hub, judged in-process: the NDJSON reader, the hub protocol's schema
// and the webhook parser. Each check returns what went wrong, or null.
import { isDeepStrictEqual } from 'node:util'
import { checkCliLine } from '../../src/claude/messages.js'
import { NdjsonReader } from '../../src/claude/ndjson.js'
import { describeZod, isDomainError } from '../../src/core/errors.js'
import { clientMessageSchema } from '../../src/core/hub-protocol.js'
import { verifyWebhook, webhookEvent } from '../../src/sources/webhook/index.js'
import type { Source } from '../../src/store/store.js'
import type { HttpInput, NdjsonCase } from './inputs.js'

const NEWLINE = Buffer.from('\n')
const thrown = (err: unknown) => `threw ${(err as Error)?.name}: ${(err as Error)?.message}`

/** What the reader owes for one line: its value, or nothing (undefined). */
function lineValue(line: Buffer): unknown {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'))
    return checkCliLine(value).ok ? value : undefined
  } catch {
    return undefined
  }
}

/** True when `got` is `owed` in order with only optional entries left out. */
function inOrder(owed: { value: unknown; optional: boolean }[], got: unknown[]): boolean {
  const memo = new Map<number, boolean>()
  const from = (i: number, j: number): boolean => {
    if (i === owed.length) return j === got.length
    const key = i * (got.length + 1) + j
    const known = memo.get(key)
    if (known !== undefined) return known
    const o = owed[i] as { value: unknown; optional: boolean }
    const ok =
      (o.optional && from(i + 1, j)) ||
      (j < got.length && isDeepStrictEqual(o.value, got[j]) && from(i + 1, j + 1))
    memo.set(key, ok)
    return ok
  }
  return from(0, 0)
}

/**
 * Every line that parses and has a type comes out once, in order, however the stream is cut. A line
 * over the reader's limit may be dropped (whether it is depends on where the cuts fall).
 */
export function checkNdjson(c: NdjsonCase): string | null {
  // A string stream holds what decoding made of invalid bytes: the reader sees those lines.
  const lines = c.strings ? c.lines.map((l) => Buffer.from(l.toString('utf8'))) : c.lines
  const stream = Buffer.concat(
    lines.flatMap((l, i) => (i < lines.length - 1 || c.trailingNewline ? [l, NEWLINE] : [l])),
  )
  const owed = lines
    .map((line) => ({ value: lineValue(line), optional: line.length > c.maxLineBytes }))
    .filter((o) => o.value !== undefined)
  const got: unknown[] = []
  let longSkip = ''
  const reader = new NdjsonReader(
    checkCliLine,
    (v) => got.push(v),
    (_reason, line) => {
      if (line.length > 201) longSkip = `onSkip got a ${line.length}-character line`
    },
    c.maxLineBytes,
  )
  try {
    for (const chunk of chunks(stream, c)) reader.push(chunk)
    reader.end()
  } catch (err) {
    return thrown(err)
  }
  if (longSkip) return longSkip
  if (reader.stats.lines !== got.length)
    return `stats.lines is ${reader.stats.lines}, ${got.length} lines came out`
  if (!inOrder(owed, got)) return `lines out: ${JSON.stringify(got)}`
  return null
}

function* chunks(stream: Buffer, c: NdjsonCase): Generator<Buffer | string> {
  const total = stream.length || 1
  if (!c.strings) {
    let at = 0
    for (const cut of [...c.cuts, stream.length]) {
      yield stream.subarray(at, Math.max(at, cut))
      at = Math.max(at, cut)
    }
    return
  }
  // Strings are cut between characters (never inside a surrogate pair), as a decoder hands them over.
  const str = stream.toString('utf8')
  let at = 0
  for (const cut of [...c.cuts, stream.length]) {
    let end = Math.max(at, Math.round((cut / total) * str.length))
    if (/[\udc00-\udfff]/.test(str[end] ?? '')) end++
    yield str.slice(at, end)
    at = end
  }
}

/** The hub's schema never throws, explains every refusal, and what it accepts it accepts again. */
export function checkHubFrame(text: string): string | null {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  try {
    const parsed = clientMessageSchema.safeParse(json)
    if (!parsed.success) return describeZod(parsed.error) ? null : 'a refusal without a reason'
    const again = clientMessageSchema.safeParse(parsed.data)
    return again.success && isDeepStrictEqual(again.data, parsed.data) ? null : 'accepted once, not twice'
  } catch (err) {
    return thrown(err)
  }
}

export const FUZZ_SOURCE: Source = {
  name: 'fz',
  topic: 'fz',
  secret: 'sbw_fuzz',
  deliveryHeader: 'X-GitHub-Delivery',
  createdAt: 0,
}

/** The request as the parser sees it, whatever route it was drawn for: for describing a failure. */
export const asWebhook = (input: HttpInput): HttpInput => ({
  ...input,
  method: 'POST',
  path: `/hooks/${FUZZ_SOURCE.name}${input.path.includes('?') ? input.path.slice(input.path.indexOf('?')) : ''}`,
})

/** Pretty-printed JSON is a few times its source; far more is a body that multiplies in the store. */
const MAX_GROWTH = 16

/**
 * The webhook parser either makes an event or refuses with a 4xx (anything else is a 500), and the
 * event it makes is not many times the size of the body it came from.
 */
export function checkWebhook(input: HttpInput, source = FUZZ_SOURCE): string | null {
  let query = new URLSearchParams()
  try {
    query = new URL(input.path, 'http://hub').searchParams
  } catch {}
  try {
    const proof = verifyWebhook(source, input.headers, input.body)
    const event = webhookEvent(source, input.headers, input.body, query, proof)
    const size = Buffer.byteLength(JSON.stringify(event))
    return size > MAX_GROWTH * input.body.length + 4096
      ? `a ${input.body.length}-byte body made a ${size}-byte event (over ${MAX_GROWTH}×)`
      : null
  } catch (err) {
    // A refusal the sender can act on (a 4xx); anything else would be the hub's fault.
    if (isDomainError(err)) return null
    return thrown(err)
  }
}
