// A route of the contract (core/api/routes.ts) on the one app: who may call it is checked, its query
// and JSON body are parsed with the contract's schemas (one line naming the field when they do not
// fit), and what the handler returns is answered as JSON with the route's status, unless it is a
// Response of its own (a stream, an upgrade, or Node's response written directly).
import type { Context, Hono } from 'hono'
import type { z } from 'zod'
import type { ParamsOf, ParsedBodyOf, ParsedQueryOf, Responses } from '../../core/api/contract.js'
import { ROUTES, type RouteName } from '../../core/api/routes.js'
import { INPUTS } from '../../core/api/schemas.js'
import { describeZod, invalid } from '../../core/errors.js'
import { parseJson } from '../../core/json.js'
import type { HubEnv } from './env.js'
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

/** Checked once who is asking is known, before the handler: e.g. a session another hub runs. */
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

async function jsonBody(c: Context<HubEnv>): Promise<unknown> {
  const text = await c.req.text()
  // An empty body is an empty object: routes whose every field is optional take a bare POST.
  return text.trim() ? parseJson(text) : {}
}

export function defineRoute<N extends RouteName>(
  app: Hono<HubEnv>,
  creds: Credentials,
  name: N,
  handler: Handler<N>,
  before?: Before,
): void {
  const route = ROUTES[name]
  const schemas = (INPUTS as Record<string, Schemas>)[name] ?? {}
  app.on(route.method, route.path, async (c) => {
    const who: Principal =
      route.auth === 'none' || route.auth === 'source'
        ? { kind: 'nobody' }
        : await identify(c, creds, name === 'senderEvents')
    authorize(c, route.auth, who)
    const elsewhere = before ? await before(c, name, who) : null
    if (elsewhere) return elsewhere
    const input = new RouteInput<N>(
      c,
      schemas.query ? parse<ParsedQueryOf<N>>(schemas.query, c.req.query()) : (undefined as ParsedQueryOf<N>),
      schemas.body ? parse<ParsedBodyOf<N>>(schemas.body, await jsonBody(c)) : (undefined as ParsedBodyOf<N>),
      who,
    )
    const answer = await handler(c, input)
    if (answer instanceof Response) return answer
    return c.json(answer as object, ('status' in route ? route.status : 200) as 200)
  })
}
