// What the fuzzers send, as fast-check arbitraries. Each entry point's inputs come in named kinds: a
// valid request with one part made arbitrary, so a failure says which part caused it, and a run can
// report (and damp, once it crashed the hub repeatedly) each kind on its own.
import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { topicMatches } from '../../src/core/event.js'

export type Kinds<T> = Record<string, fc.Arbitrary<T>>
export const anyKind = <T>(kinds: Kinds<T>): fc.Arbitrary<T> => fc.oneof(...Object.values(kinds))

/** The hub's default `maxBodyBytes`. */
const BODY_LIMIT = 64 * 1024

const char = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCharCode(c))
const text = (s: string) => Buffer.from(s)

/** Any JSON value, kept small: fc.jsonValue costs more than the checks it would feed. */
const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.boolean(),
  fc.constant(null),
)
const smallJson = fc.oneof(
  { weight: 4, arbitrary: scalar },
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 4 }),
)

// --- bodies ------------------------------------------------------------------------------------

/** `[[[…1…]]]` or `{"a":{"a":…}}` thousands deep; open ones end mid-way. */
const deepJson = fc
  .record({
    depth: fc.integer({ min: 1, max: 14_000 }),
    open: fc.constantFrom('[', '{"a":', '{"x":1,"a":', '{"text":"t","a":'),
    balanced: fc.boolean(),
  })
  .map(({ depth, open, balanced }) => {
    const close = open === '[' ? ']' : '}'
    return open.repeat(depth) + (balanced ? `1${close.repeat(depth)}` : '1')
  })

/** Keys that mean something to JavaScript or to the hub. */
const trickyKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'text', 'content', 'message', 'source', '1', ''),
)

/** A JSON object written by hand, so `__proto__` and repeated keys stay in the text. */
const jsonObject = fc
  .array(fc.tuple(trickyKey, smallJson), { maxLength: 40 })
  .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`)

/** Just under, at and over the size limit. */
const hugeBody = fc
  .record({
    size: fc.integer({ min: BODY_LIMIT - 64, max: BODY_LIMIT + 64 }),
    fill: fc.constantFrom('a', 'é', ' ', '['),
    json: fc.boolean(),
  })
  .map(({ size, fill, json }) => {
    const inner = fill.repeat(Math.ceil(size / Buffer.byteLength(fill)))
    return Buffer.from(json ? `{"text":"${inner}"}` : inner).subarray(0, size)
  })

/** Non-UTF-8 bytes, bare or inside a JSON string. */
const rawBytes = fc
  .record({ bytes: fc.uint8Array({ maxLength: 300 }), wrapped: fc.boolean() })
  .map(({ bytes, wrapped }) =>
    wrapped ? Buffer.concat([text('{"text":"'), Buffer.from(bytes), text('"}')]) : Buffer.from(bytes),
  )

/** Shallow enough to pass a depth limit, wide enough that pretty-printing it multiplies its size. */
const wideJson = fc
  .record({ depth: fc.integer({ min: 1, max: 70 }), width: fc.integer({ min: 1, max: 30_000 }) })
  .map(({ depth, width }) => `${'['.repeat(depth)}${'1,'.repeat(width)}1${']'.repeat(depth)}`)

export const bodies: Kinds<Buffer> = {
  json: fc.oneof(fc.json({ maxDepth: 4 }), jsonObject).map(text),
  deep: deepJson.map(text),
  wide: wideJson.map(text),
  huge: hugeBody,
  bytes: rawBytes,
  text: fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('', ' ', '\n\t ')).map(text),
}

// --- HTTP --------------------------------------------------------------------------------------

export interface HttpInput {
  method: string
  path: string
  headers: Record<string, string>
  body: Buffer
  /** Sent without a Content-Length, in pieces: the limit is then checked as bytes arrive. */
  chunked: boolean
}

/** What node's HTTP client lets through in a header value: tab, visible ASCII and Latin-1. */
const headerChar = fc.oneof({ weight: 8, arbitrary: char(0x20, 0x7e) }, fc.constant('\t'), char(0x80, 0xff))
const headerValue = (maxLength = 80) => fc.string({ unit: headerChar, maxLength })

/**
 * Visible ASCII in a request target, with extra escapes and separators. Raw bytes over 0x7f are left
 * to the raw TCP fuzzer: the hub refuses them with a 400 and closes, and node's client, still writing
 * a large body then, may report the reset instead of the 400 (curl shows the 400).
 */
const targetChar = fc.oneof(
  { weight: 6, arbitrary: char(0x21, 0x7e) },
  fc.constantFrom('%', '/', '.', '%E0', '%2F', '%00', '%%', '?', '#'),
)
const targetPart = (maxLength = 30) => fc.string({ unit: targetChar, maxLength })

const ODD_PATHS = [
  '//',
  '///',
  '//hooks/fz',
  '/hooks/%',
  '/hooks/%E0',
  '/hooks/%FF%FE',
  '/hooks/..',
  '/hooks/../health',
  '/hooks/%2e%2e/health',
  '/hooks/',
  '/hooks//fz',
  '/./hooks/fz',
  '/hooks/fz/..',
  'http://x/hooks/fz',
  '*',
]

const paths = (valid: string) =>
  fc.oneof(
    fc.constantFrom(...ODD_PATHS),
    targetPart().map((s) => `/hooks/${s}`),
    targetPart().map((s) => `/${s}`),
    targetPart().map((s) => `//${s}`),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => `/hooks/${'a'.repeat(n)}`),
    fc.constant(valid),
  )

const queries = fc.oneof(
  fc.constant(''),
  targetPart(60).map((s) => `?${s}`),
  fc
    .array(fc.tuple(trickyKey, fc.string({ maxLength: 20 })), { maxLength: 40 })
    .map((kv) => `?${new URLSearchParams(kv).toString()}`),
)

const methods = fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'POST')

const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'JSON',
    '',
  ),
  headerValue(),
)

/** Bearer tokens right, nearly right and wrong. */
const bearers = (secret: string) =>
  fc.oneof(
    fc.constantFrom(
      `bearer   ${secret}  `,
      `Bearer ${secret}x`,
      `Bearer ${secret.slice(0, -1)}`,
      'Bearer',
      'Basic eDp5',
    ),
    headerValue().map((v) => `Bearer ${v}`),
    headerValue(),
  )

/** Header names node would treat as framing are left to the client. */
const extraHeaders = fc.dictionary(
  fc.oneof(
    fc.constantFrom('x-github-event', 'x-github-delivery', 'last-event-id', 'content-encoding', 'cookie'),
    fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
  ),
  headerValue(),
  { maxKeys: 6 },
)

type Parts = {
  method: string
  path: string
  query: string
  auth: string | undefined
  signature: string | undefined
  idempotency: string | undefined
  contentType: string | undefined
  extra: Record<string, string>
  body: Buffer
  chunked: boolean
}

/** `valid` with each named part swapped for its arbitrary in turn, plus `mixed`: all at once. */
function requestKinds(
  valid: { [K in keyof Parts]: fc.Arbitrary<Parts[K]> },
  arbitrary: Partial<{ [K in keyof Parts]: fc.Arbitrary<Parts[K]> }>,
  bodyKinds: Kinds<Buffer>,
  build: (parts: Parts) => HttpInput,
): Kinds<HttpInput> {
  const kinds: Kinds<HttpInput> = {}
  for (const [part, arb] of Object.entries(arbitrary))
    kinds[part] = fc.record({ ...valid, [part]: arb }).map(build)
  for (const [name, body] of Object.entries(bodyKinds))
    kinds[`body:${name}`] = fc.record({ ...valid, body }).map(build)
  kinds.mixed = fc.record({ ...valid, ...arbitrary, body: anyKind(bodyKinds) }).map(build)
  return kinds
}

/** Node's limit on a request's head; the hub answers 431 past it. */
const MAX_HEAD = 16 * 1024

function httpInput(p: Parts): HttpInput {
  const headers: Record<string, string> = { ...p.extra }
  if (p.auth !== undefined) headers.authorization = p.auth
  if (p.signature !== undefined) headers['x-hub-signature-256'] = p.signature
  if (p.idempotency !== undefined) headers['idempotency-key'] = p.idempotency
  if (p.contentType !== undefined) headers['content-type'] = p.contentType
  const path = p.path + p.query
  // Past the head limit the hub answers 431 and closes; node's client, still writing a large body,
  // may then report the reset instead of the 431 (curl shows the 431), so such heads carry small bodies.
  const body = path.length + JSON.stringify(headers).length > MAX_HEAD ? p.body.subarray(0, 1024) : p.body
  return { method: p.method, path, headers, body, chunked: p.chunked }
}

const VALID_SIGNATURE = '<valid>'

/** POST /hooks/<source>: the source's secret and a small body make the valid request. */
export function webhookKinds(source: string, secret: string): Kinds<HttpInput> {
  const build = (p: Parts) => {
    const signature =
      p.signature === VALID_SIGNATURE
        ? `sha256=${createHmac('sha256', secret).update(p.body).digest('hex')}`
        : p.signature
    return httpInput({ ...p, signature })
  }
  return requestKinds(
    {
      method: fc.constant('POST'),
      path: fc.constant(`/hooks/${source}`),
      query: fc.constant(''),
      auth: fc.constant(`Bearer ${secret}`),
      signature: fc.constant(undefined),
      idempotency: fc.constant(undefined),
      contentType: fc.constant(undefined),
      extra: fc.constant({}),
      body: fc.constant(text('build failed')),
      chunked: fc.constant(false),
    },
    {
      method: methods,
      path: paths(`/hooks/${source}`),
      query: queries,
      auth: fc.option(bearers(secret), { nil: undefined }),
      signature: fc.oneof(
        fc.constant(VALID_SIGNATURE),
        fc.stringMatching(/^sha256=[0-9a-f]{64}$/),
        headerValue(),
      ),
      idempotency: fc.oneof(fc.constantFrom('dup', ''), headerValue(), headerValue(400)),
      contentType: contentTypes,
      extra: extraHeaders,
      chunked: fc.boolean(),
    },
    bodies,
    build,
  )
}

/** What may stand in `to`: names, near-names and any JSON. */
const recipients = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._:-]{1,100}$/),
  fc.constantFrom('', 'a'.repeat(101), 'watcher', '../x', 'a b'),
  smallJson,
)

const messageBodies: Kinds<Buffer> = {
  ...bodies,
  to: fc
    .record({ text: fc.oneof(fc.string({ maxLength: 50 }), smallJson), to: recipients })
    .map((b) => text(JSON.stringify(b))),
  verdict: fc
    .tuple(
      fc.constantFrom('yes', 'no', 'y', 'N', 'YES'),
      fc.stringMatching(/^[a-z]{5}$/),
      fc.constantFrom('', ' ', '\n'),
    )
    .map(([word, code, pad]) => text(`${pad}${word} ${code}${pad}`)),
}

/** POST /messages as an allowed operator: the sender's token and a line of text make the valid request. */
export function messageKinds(token: string): Kinds<HttpInput> {
  return requestKinds(
    {
      method: fc.constant('POST'),
      path: fc.constant('/messages'),
      query: fc.constant(''),
      auth: fc.constant(`Bearer ${token}`),
      signature: fc.constant(undefined),
      idempotency: fc.constant(undefined),
      contentType: fc.constant('text/plain'),
      extra: fc.constant({}),
      body: fc.constant(text('hello')),
      chunked: fc.constant(false),
    },
    {
      query: fc.oneof(queries, fc.constant(`?token=${token}`)),
      auth: fc.option(bearers(token), { nil: undefined }),
      idempotency: fc.oneof(fc.constantFrom('dup', ''), headerValue(), headerValue(400)),
      contentType: contentTypes,
      extra: extraHeaders,
      chunked: fc.boolean(),
    },
    messageBodies,
    (p) => {
      // The `to` and verdict bodies only mean something as JSON and as text respectively.
      const input = httpInput(p)
      if (p.body[0] === 0x7b && p.contentType === 'text/plain')
        input.headers['content-type'] = 'application/json'
      return input
    },
  )
}

// --- hub protocol (WebSocket) -----------------------------------------------------------------

/** One WebSocket frame. A Buffer sent as text may hold invalid UTF-8, which ends the connection. */
export type Frame = { text: string } | { bytes: Buffer; binary: boolean }

export interface HubSession {
  before: Frame[]
  /** A valid hello between `before` and `after`, or none. */
  hello: Record<string, unknown> | null
  after: Frame[]
  end: 'close' | 'terminate' | 'bye'
}

/** Fuzzed channels use names of their own (`fz-N`, made unique per worker when sent). */
const fuzzName = fc.integer({ min: 0, max: 3 }).map((n) => `fz-${n}`)

/** Topics no event the fuzzers publish is on, so fuzzed channels add no fan-out to the hub's work. */
const quietTopics = fc.array(
  fc.oneof(
    fc.stringMatching(/^x[A-Za-z0-9._:/*-]{0,20}$/),
    fc
      .stringMatching(/^[A-Za-z0-9._:/*-]{1,20}$/)
      .filter(
        (t) =>
          !topicMatches([t], 'fz') && !topicMatches([t], 'beat') && !topicMatches([t], 'chat:http:fuzzer'),
      ),
  ),
  { minLength: 1, maxLength: 4 },
)

const int = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, 2 ** 31))
const orAny = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, smallJson)
const str = fc.string({ maxLength: 40 })

const validHello = fc.record(
  {
    type: fc.constant('hello'),
    subscriber: fuzzName,
    topics: quietTopics,
    reconnect: fc.boolean(),
    rung: fc.constantFrom('channel', 'message'),
    aliases: fc.array(
      fuzzName.map((n) => `${n}a`),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['type', 'subscriber', 'topics'] },
)

const peerRequest = fc.record(
  {
    action: orAny(fc.constantFrom('list', 'send', 'broadcast', 'join', 'leave', 'send_room')),
    to: orAny(fc.oneof(fuzzName, fc.stringMatching(/^[A-Za-z0-9._:-]{1,8}$/))),
    text: orAny(str),
    room: orAny(fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/)),
  },
  { requiredKeys: ['action'] },
)

/** Messages of every type, each field valid or any JSON. */
const messages = fc.oneof(
  fc.record({ type: fc.constant('ack'), seq: orAny(int) }),
  fc.record({ type: fc.constant('reply'), rid: orAny(int), chat_id: orAny(str), text: orAny(str) }),
  fc.record({
    type: fc.constant('permission_request'),
    rid: orAny(int),
    request: orAny(
      fc.record(
        {
          request_id: orAny(fc.oneof(fc.stringMatching(/^[a-km-z]{5}$/), str)),
          tool_name: orAny(str),
          description: orAny(str),
          input_preview: orAny(str),
        },
        { requiredKeys: [] },
      ),
    ),
  }),
  fc.record({ type: fc.constant('peer'), rid: orAny(int), request: orAny(peerRequest) }),
  fc.record({ type: fc.constant('rung'), rung: orAny(fc.constantFrom('channel', 'message')) }),
  fc.constant({ type: 'bye' }),
  fc.record({
    type: fc.constant('hello'),
    subscriber: orAny(fuzzName),
    topics: orAny(quietTopics),
    reconnect: smallJson,
  }),
  validHello,
  fc.record({ type: smallJson }),
)

export const frames: Kinds<Frame> = {
  message: messages.map((m) => ({ text: JSON.stringify(m) })),
  json: fc.json({ maxDepth: 4 }).map((t) => ({ text: t })),
  deep: fc
    .record({ depth: fc.integer({ min: 1, max: 100_000 }), balanced: fc.boolean() })
    .map(({ depth, balanced }) => ({
      text: `{"type":"peer","rid":1,"request":${'['.repeat(depth)}${balanced ? ']'.repeat(depth) : ''}}`,
    })),
  text: fc.string({ unit: 'binary', maxLength: 200 }).map((t) => ({ text: t })),
  binary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ bytes: Buffer.from(b), binary: true })),
  'invalid-utf8': fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((b) => ({ bytes: Buffer.concat([Buffer.from(b), Buffer.from([0xff])]), binary: false })),
  huge: fc
    .integer({ min: 100_000, max: 1_000_000 })
    .map((n) => ({ text: JSON.stringify({ type: 'reply', rid: 1, chat_id: 'c', text: 'x'.repeat(n) }) })),
}

export function sessions(frameKinds: Kinds<Frame>): fc.Arbitrary<HubSession> {
  const frame = anyKind(frameKinds)
  return fc.record({
    before: fc.array(frame, { maxLength: 6 }),
    hello: fc.option(validHello, { nil: null }),
    after: fc.array(frame, { maxLength: 20 }),
    end: fc.constantFrom('close', 'terminate', 'bye'),
  })
}

/** Sessions whose frames all come from one kind, so a failure names the kind. */
export const sessionKinds: Kinds<HubSession> = Object.fromEntries(
  Object.entries(frames).map(([kind, arb]) => [kind, sessions({ [kind]: arb })]),
)

// --- raw TCP ----------------------------------------------------------------------------------

/** Request targets beyond what an HTTP client would send. */
export const ODD_TARGETS = [
  ...ODD_PATHS,
  '//%',
  '//[',
  '// ',
  '//@',
  'http://x/',
  'http://x/hooks/fz',
  'http://[::1]:80/health',
  'https://a:b@c/d?e#f',
  'http:',
  '',
  '?',
  '#',
  'health',
  '../../etc/passwd',
  '/health?%',
  '/sdk/%E0',
  '/sdk/%',
  '/sdk/x',
  '/hub',
  '/hub/',
  '/HUB',
]

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1')
const rawTarget = fc.oneof(
  fc.constantFrom(...ODD_TARGETS),
  fc.uint8Array({ maxLength: 40 }).map((b) => `/${latin1(b.filter((c) => c > 0x20))}`),
  targetPart(40).map((s) => `//${s}`),
  targetPart(40).map((s) => `/sdk/${s}`),
  targetPart(40).map((s) => `http://${s}`),
)

const CRLF = '\r\n'
const rawMethods = fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'OPTIONS', 'CONNECT', 'PRI', 'get', 'XYZ')
const versions = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'HTTP/11', '')
const headerLine = fc.oneof(
  fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), headerValue()).map(([k, v]) => `${k}: ${v}`),
  fc.uint8Array({ maxLength: 60 }).map((b) => latin1(b.filter((c) => c !== 0x0a && c !== 0x0d))),
  fc.constantFrom(
    'Content-Length: -1',
    'Content-Length: 1, 2',
    'Content-Length: 99999999999999999999',
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked',
    ' folded',
    'Expect: 100-continue',
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Host:',
    'Origin: http://evil.example',
    'Origin: null',
  ),
)

const wsHandshake = (token: string | null) =>
  [
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    ...(token ? [`Authorization: Bearer ${token}`] : []),
  ].join(CRLF)

/** Whole requests as bytes. `adminToken` makes some upgrades to /hub succeed before garbage follows. */
export function rawKinds(adminToken: string): Kinds<Buffer> {
  const request = (method: string, target: string, version: string, headers: string[], body = '') =>
    Buffer.from(`${method} ${target} ${version}${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}${body}`, 'latin1')
  return {
    target: fc
      .tuple(rawMethods, rawTarget)
      .map(([m, t]) =>
        request(m, t, 'HTTP/1.1', ['Host: 127.0.0.1', 'Content-Length: 0', 'Connection: close']),
      ),
    upgrade: fc
      .record({
        target: rawTarget,
        token: fc.constantFrom(adminToken, null, 'wrong'),
        garbage: fc.uint8Array({ maxLength: 200 }),
      })
      .map(({ target, token, garbage }) =>
        Buffer.concat([
          request('GET', target, 'HTTP/1.1', ['Host: 127.0.0.1', wsHandshake(token)]),
          Buffer.from(garbage),
        ]),
      ),
    headers: fc
      .tuple(
        fc.constantFrom('/health', '/hooks/fz', '/messages', '/pair'),
        fc.array(headerLine, { maxLength: 8 }),
      )
      .map(([t, lines]) =>
        request('POST', t, 'HTTP/1.1', ['Host: 127.0.0.1', ...lines, 'Connection: close']),
      ),
    version: fc
      .tuple(rawMethods, versions)
      .map(([m, v]) => request(m, '/health', v, ['Host: 127.0.0.1', 'Connection: close'])),
    chunks: fc
      .array(
        fc.tuple(
          fc.oneof(fc.stringMatching(/^[0-9a-fA-F]{0,4}$/), fc.constantFrom('-1', 'zz', '0x10', '')),
          fc.string({ maxLength: 20 }),
        ),
        { maxLength: 4 },
      )
      .map((chunks) =>
        request(
          'POST',
          '/hooks/fz',
          'HTTP/1.1',
          ['Host: 127.0.0.1', 'Transfer-Encoding: chunked', 'Connection: close'],
          `${chunks.map(([size, data]) => `${size}${CRLF}${data}${CRLF}`).join('')}0${CRLF}${CRLF}`,
        ),
      ),
    pipelined: fc
      .array(fc.tuple(rawMethods, rawTarget), { minLength: 2, maxLength: 6 })
      .map((reqs) =>
        Buffer.concat(
          reqs.map(([m, t]) => request(m, t, 'HTTP/1.1', ['Host: 127.0.0.1', 'Content-Length: 0'])),
        ),
      ),
    host: fc
      .tuple(
        fc.constantFrom('/health', '/hub', '/hooks/fz'),
        fc.oneof(
          fc.constantFrom('', 'evil.example', '127.0.0.1:1', '[::1]', '[', ':', 'localhost:99999'),
          headerValue(),
        ),
      )
      .map(([t, host]) => request('GET', t, 'HTTP/1.1', [`Host: ${host}`, wsHandshake(adminToken)])),
    garbage: fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)),
  }
}

// --- NDJSON -----------------------------------------------------------------------------------

export interface NdjsonCase {
  /** Lines without their newline. */
  lines: Buffer[]
  /** Byte offsets where the stream is cut into chunks. */
  cuts: number[]
  /** Pushed as strings (cut between characters) rather than Buffers. */
  strings: boolean
  trailingNewline: boolean
  maxLineBytes: number
}

const typed = fc
  .record({ type: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), data: smallJson })
  .map((v) => JSON.stringify(v))

const ndjsonLine = fc.oneof(
  { weight: 5, arbitrary: typed.map(text) },
  typed.map((t) => text(`  ${t}\r`)),
  smallJson.map((v) => text(JSON.stringify(v))),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => text(s.replaceAll('\n', ''))),
  fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b.filter((c) => c !== 0x0a))),
  fc.constantFrom('', ' ', '\r', '{', '{"type":""}', '{"type":1}', 'null', '[]').map(text),
  fc.integer({ min: 100, max: 2_000 }).map((n) => text(JSON.stringify({ type: 'long', pad: 'é'.repeat(n) }))),
)

export const ndjsonCases: fc.Arbitrary<NdjsonCase> = fc
  .record({
    lines: fc.array(ndjsonLine, { maxLength: 12 }),
    cutFractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 16 }),
    strings: fc.boolean(),
    trailingNewline: fc.boolean(),
    maxLineBytes: fc.constantFrom(64, 256, 4096, 64 * 1024 * 1024),
  })
  .map(({ lines, cutFractions, strings, trailingNewline, maxLineBytes }) => {
    const total = lines.reduce((n, l) => n + l.length + 1, 0)
    const cuts = [...new Set(cutFractions.map((f) => Math.floor(f * total)))].sort((a, b) => a - b)
    return { lines, cuts, strings, trailingNewline, maxLineBytes }
  })
