// The hub's HTTP API as an OpenAPI 3.1 document, generated from the contract the hub routes with
// (core/api/routes.ts: paths, who may call, body limits) and the zod schemas it checks each body and
// query with (core/api/schemas.ts): nothing in it is written by hand, so it cannot drift from what
// the hub does.
import * as z from 'zod'
import { type Auth, bodyLimitOf, ROUTES, type RouteDef } from '../../core/api/routes.js'
import { INPUTS, messageBodySchema, STREAM_EVENTS } from '../../core/api/schemas.js'
import { VERSION } from '../../core/version.js'

const SECURITY: Record<Auth, Record<string, string[]>[] | undefined> = {
  none: undefined,
  source: [{ source: [] }],
  sender: [{ sender: [] }],
  browser: [{ browser: [] }, { admin: [] }],
  operator: [{ browser: [] }, { admin: [] }],
  admin: [{ admin: [] }],
  hook: [{ hook: [] }, { admin: [] }],
}

const jsonOf = (schema: z.ZodType) => ({
  'application/json': { schema: z.toJSONSchema(schema, { io: 'input' }) },
})

/** A body limit as a person reads it. */
function limitText(limit: number | 'maxBodyBytes' | 'chatFileLimitMb'): string {
  if (limit === 'maxBodyBytes') return "at most the hub's maxBodyBytes (64 KiB unless set); 413 past it"
  if (limit === 'chatFileLimitMb') return 'at most chatFileLimitMb (50 MB unless set); 413 past it'
  return `at most ${limit >= 1024 ? `${limit / 1024} KiB` : `${limit} bytes`}; 413 past it`
}

function parametersOf(route: RouteDef, query: z.ZodType | undefined): Record<string, unknown>[] {
  const inPath = [...route.path.matchAll(/:([a-zA-Z]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  if (!(query instanceof z.ZodObject)) return inPath
  const shape =
    (z.toJSONSchema(query, { io: 'input' }) as { properties?: Record<string, unknown> }).properties ?? {}
  return [...inPath, ...Object.entries(shape).map(([name, schema]) => ({ name, in: 'query', schema }))]
}

/**
 * A server-sent event stream's answer: `text/event-stream`, and, where the contract says what it sends
 * (STREAM_EVENTS), each event by name with its data's schema (`x-events`: OpenAPI 3.1 has no word for
 * a stream's items). Null when the route is no stream.
 */
function streamAnswer(name: string, route: RouteDef): Record<string, unknown> | null {
  if (route.stream !== 'sse') return null
  const union = (STREAM_EVENTS as Record<string, z.ZodDiscriminatedUnion | undefined>)[name]
  const events: Record<string, unknown> = {}
  for (const option of union?.options ?? []) {
    const { kind, body } = (option as z.ZodObject<{ kind: z.ZodLiteral | z.ZodEnum; body: z.ZodType }>).shape
    const kinds = kind instanceof z.ZodLiteral ? [...kind.values] : kind.options
    for (const k of kinds) events[String(k)] = z.toJSONSchema(body, { io: 'input' })
  }
  return {
    'text/event-stream': {
      schema: {
        type: 'string',
        description: union
          ? 'server-sent events: `id:` the item, `event:` one of x-events, `data:` its JSON'
          : 'server-sent events',
      },
      ...(union ? { 'x-events': events } : {}),
    },
  }
}

let document: Record<string, unknown> | null = null

/** Built once: the contract does not change while the hub runs. */
export function openApiDocument(): Record<string, unknown> {
  document ??= build()
  return document
}

function build(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [name, route] of Object.entries(ROUTES) as [string, RouteDef][]) {
    const inputs = (INPUTS as Record<string, { body?: z.ZodType; query?: z.ZodType }>)[name] ?? {}
    const body = name === 'message' ? messageBodySchema : inputs.body
    const path = route.path.replace(/:([a-zA-Z]+)/g, '{$1}')
    const stream = streamAnswer(name, route)
    paths[path] ??= {}
    ;(paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = {
      operationId: name,
      summary: route.summary,
      ...(SECURITY[route.auth] ? { security: SECURITY[route.auth] } : {}),
      parameters: parametersOf(route, inputs.query),
      ...(body ? { requestBody: { description: limitText(bodyLimitOf(route)), content: jsonOf(body) } } : {}),
      // A file's bytes as they are, its type in Content-Type.
      ...(route.file
        ? {
            requestBody: {
              description: limitText(bodyLimitOf(route)),
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            },
          }
        : {}),
      // Every route's, whether it takes a body or not: bytes, or the name of the hub's setting.
      'x-max-body-bytes': bodyLimitOf(route),
      responses: {
        [String(route.stream === 'upgrade' ? 101 : ('status' in route && route.status) || 200)]: {
          description: route.stream === 'sse' ? 'text/event-stream' : route.summary,
          ...(stream ? { content: stream } : {}),
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Switchboard hub', version: VERSION },
    components: {
      securitySchemes: {
        admin: { type: 'http', scheme: 'bearer', description: 'the home’s admin-token' },
        browser: {
          type: 'http',
          scheme: 'bearer',
          description: 'a signed-in browser’s key (POST /api/signin)',
        },
        sender: { type: 'http', scheme: 'bearer', description: 'a sender’s token' },
        hook: { type: 'http', scheme: 'bearer', description: 'the home’s hook-token (Claude Code’s hooks)' },
        source: { type: 'http', scheme: 'bearer', description: 'a webhook source’s secret (or a signature)' },
      },
    },
    paths,
  }
}
