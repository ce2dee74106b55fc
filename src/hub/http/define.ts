// A route of the contract (core/api/routes.ts) on the one app, for the method the contract names
// only: who may call it is checked, then its body is read (no further than the route's limit), its
// query and JSON body are parsed with the contract's schemas (one line naming the field when they do
// not fit), and what the handler returns is answered as JSON with the route's status, unless it is a
// Response of its own (a stream, an upgrade, or Node's response written directly).
import type { Context, Hono } from 'hono'
import type * as z from 'zod'
import type { ParamsOf, ParsedBodyOf, ParsedQueryOf, Responses } from '../../core/api/contract.js'
import { bodyLimitOf, ROUTES, type RouteDef, type RouteName } from '../../core/api/routes.js'
import { INPUTS } from '../../core/api/schemas.js'
import { describeZod, invalid } from '../../core/errors.js'
import { parseJson } from '../../core/json.js'
import type { HubEnv } from './env.js'
import { wrongMethod } from './methods.js'
import { requestBody } from './node-io.js'
import { authorize, type Credentials, identify, type Principal } from './principal.js'

export interface Input<N extends RouteName> {
  params: ParamsOf<N>
  query: ParsedQueryOf<N>
  body: ParsedBodyOf<N>
  who: Principal
}

export type Handler<N extends RouteName> = (
  c: Context<HubEnv>,
  input: Input<N>,
) => Promise<Responses[N] | Response> | Responses[N] | Response

/** Checked once who is asking is known, before the body and the handler: e.g. a session another hub runs. */
export type Before = (c: Context<HubEnv>, name: RouteName, who: Principal) => Promise<Response | null>

/**
 * A handler's input, its path's params decoded when read, not before: most routes have none. A class,
 * not an object literal with a getter: each such literal gets a hidden class of its own, made in the
 * old generation, which only a full collection frees; per request, that was most of what the one app
 * cost over the hand-made dispatch under load (bench:router).
 */
class RouteInput<N extends RouteName> implements Input<N> {
  constructor(
    private readonly c: Context<HubEnv>,
    readonly query: ParsedQueryOf<N>,
    readonly body: ParsedBodyOf<N>,
    readonly who: Principal,
  ) {}

  get params(): ParamsOf<N> {
    return this.c.req.param() as unknown as ParamsOf<N>
  }
}

type Schemas = { body?: z.ZodType; query?: z.ZodType }

function parse<T>(schema: z.ZodType | undefined, value: unknown): T {
  if (!schema) return undefined as T
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw invalid(describeZod(parsed.error))
  return parsed.data as T
}

function jsonBody(body: Buffer): unknown {
  const text = body.toString('utf8')
  // An empty body is an empty object: routes whose every field is optional take a bare POST.
  return text.trim() ? parseJson(text) : {}
}

export interface RouteOptions {
  /** Checked once who is asking is known, before the body is read: a session another hub runs, say. */
  before?: Before
  /** The hub's maxBodyBytes setting: the limit of a route whose contract names it. */
  maxBodyBytes?: number
  /** A limit that depends on the request (a webhook source's sender's own cap), at least that setting. */
  bodyLimit?: (c: Context<HubEnv>) => number | Promise<number>
}

export function defineRoute<N extends RouteName>(
  app: Hono<HubEnv>,
  creds: Credentials,
  name: N,
  handler: Handler<N>,
  { before, maxBodyBytes, bodyLimit }: RouteOptions = {},
): void {
  const route = ROUTES[name]
  const schemas = (INPUTS as Record<string, Schemas>)[name] ?? {}
  const named = bodyLimitOf(route as RouteDef)
  const limit = named === 'maxBodyBytes' ? maxBodyBytes : named === 'chatFileLimitMb' ? undefined : named
  if (named === 'chatFileLimitMb' && !bodyLimit)
    throw new Error(`${name}: its body limit is chatFileLimitMb; pass it`)
  if (limit === undefined && !bodyLimit)
    throw new Error(`${name}: its body limit is the hub's maxBodyBytes; pass it`)
  app.on(route.method, route.path, async (c) => {
    // Hono answers a HEAD with its path's GET route and drops the body: the route would still act.
    if (c.req.method !== route.method) return wrongMethod(c.req.method, c.req.path)
    c.env.bodyLimit = bodyLimit ? await bodyLimit(c) : (limit as number)
    const who: Principal =
      route.auth === 'none' || route.auth === 'source'
        ? { kind: 'nobody' }
        : await identify(c, creds, name === 'senderEvents')
    authorize(c, route.auth, who)
    const elsewhere = before ? await before(c, name, who) : null
    if (elsewhere) return elsewhere
    const query = schemas.query
      ? parse<ParsedQueryOf<N>>(schemas.query, c.req.query())
      : (undefined as ParsedQueryOf<N>)
    // Read whether the route parses it or not: a body past the limit is refused on every route.
    const body = await requestBody(c)
    const input = new RouteInput<N>(
      c,
      query,
      schemas.body ? parse<ParsedBodyOf<N>>(schemas.body, jsonBody(body)) : (undefined as ParsedBodyOf<N>),
      who,
    )
    const answer = await handler(c, input)
    if (answer instanceof Response) return answer
    return c.json(answer as object, ('status' in route ? route.status : 200) as 200)
  })
}
