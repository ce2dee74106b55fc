// Calls the hub's routes by name, typed from the contract: the CLI (over the home's socket or TCP, with
// the admin token) and the page (fetch, with its key) each give it how to send a request. No zod, so
// the page can use it.
import type { ErrorKind } from '../errors.js'
import type { BodyOf, ParamsOf, QueryOf, Responses } from './contract.js'
import { API_HEADER, pathOf, ROUTES, type RouteName } from './routes.js'

/** A request as it goes out, and the answer as it comes back. */
export interface WireRequest {
  method: string
  path: string
  headers: Record<string, string>
  /** JSON, or a file's bytes as they are (a route whose contract says `file`). */
  body?: string | Blob
}
export interface WireAnswer {
  status: number
  body: string
}
export type Send = (request: WireRequest) => Promise<WireAnswer>

/** A route answered with an error: its status, the kind the hub named, and its one-line reason. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly kind: ErrorKind | null,
    message: string,
  ) {
    super(message)
  }
}

type MaybeParams<N extends RouteName> = keyof ParamsOf<N> extends never
  ? { params?: undefined }
  : { params: ParamsOf<N> }
type MaybeBody<N extends RouteName> = BodyOf<N> extends undefined ? { body?: undefined } : { body: BodyOf<N> }
/** A route that takes a file takes it as a Blob, sent as it is with its type. */
type MaybeFile<N extends RouteName> = (typeof ROUTES)[N] extends { file: true }
  ? { file: Blob }
  : { file?: undefined }
export type Input<N extends RouteName> = MaybeParams<N> &
  MaybeBody<N> &
  MaybeFile<N> & { query?: QueryOf<N>; headers?: Record<string, string> }
// biome-ignore lint/complexity/noBannedTypes: "an input with nothing required" is exactly {}
type Args<N extends RouteName> = {} extends Input<N> ? [input?: Input<N>] : [input: Input<N>]

export type Call = <N extends RouteName>(name: N, ...args: Args<N>) => Promise<Responses[N]>

/** The path and query of a call, as it goes on the wire. */
export function target(name: RouteName, params?: Record<string, string>, query?: object): string {
  const path = pathOf(name, params)
  if (!query) return path
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null) search.set(key, String(value))
  const text = search.toString()
  return text ? `${path}?${text}` : path
}

/** A caller of the hub's routes over `send`; `headers` adds what every request carries (a credential). */
export function apiClient(send: Send, headers: () => Record<string, string> = () => ({})): Call {
  return async (name, ...[input]) => {
    const route = ROUTES[name]
    const i = (input ?? {}) as {
      params?: Record<string, string>
      body?: unknown
      file?: Blob
      query?: object
      headers?: Record<string, string>
    }
    const answer = await send({
      method: route.method,
      path: target(name, i.params, i.query),
      headers: {
        ...headers(),
        ...(route.method === 'GET' ? {} : { [API_HEADER]: '1' }),
        ...(i.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(i.file?.type ? { 'content-type': i.file.type } : {}),
        ...i.headers,
      },
      body: i.file ?? (i.body === undefined ? undefined : JSON.stringify(i.body)),
    })
    let json: unknown = null
    try {
      json = answer.body ? JSON.parse(answer.body) : null
    } catch {
      // not JSON: its text is the reason, below
    }
    if (answer.status < 200 || answer.status >= 300) {
      const e = (json ?? {}) as { error?: unknown; kind?: unknown }
      const message =
        typeof e.error === 'string' ? e.error : answer.body.trim() || `the hub answered ${answer.status}`
      throw new ApiError(answer.status, typeof e.kind === 'string' ? (e.kind as ErrorKind) : null, message)
    }
    return json as Responses[typeof name]
  }
}
