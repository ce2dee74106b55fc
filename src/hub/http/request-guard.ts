// What every request must pass before a route sees it: a target that is a path (an absolute URL
// would name a host the Host check never saw) with no broken escape (Hono would hand a route the raw
// text); and over TCP, a Host that names this hub (so a page whose name was rebound to 127.0.0.1
// gets nowhere) and no foreign browser Origin (so no web page can drive the hub with a visitor's
// browser).
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { forbidden, invalid } from '../../core/errors.js'

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1'])

export interface HostRules {
  /** The address the hub is bound to. */
  bound: string
  port: number
  /** Further names (with or without `:port`) the hub may be reached by, from config.json. */
  allowedHosts: string[]
}

/** `name[:port]` of a Host header or an Origin, split; IPv6 literals keep no brackets. */
function split(hostAndPort: string): { name: string; port: number | null } | null {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(hostAndPort.trim().toLowerCase())
  if (!m?.[1]) return null
  return { name: m[1].replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : null }
}

/**
 * A name attacker-controlled DNS cannot point here: a loopback name or, when the hub is bound
 * beyond loopback, any IP literal, at the hub's own port; or one the owner listed.
 */
export function hostAllowed(host: string, rules: HostRules): boolean {
  if (rules.allowedHosts.some((h) => h.toLowerCase() === host.toLowerCase())) return true
  const parsed = split(host)
  if (!parsed) return false
  if (rules.allowedHosts.some((h) => h.toLowerCase() === parsed.name)) return true
  const exposed = !LOOPBACK_NAMES.has(rules.bound)
  const known = LOOPBACK_NAMES.has(parsed.name) || (exposed && isIP(parsed.name) !== 0)
  return known && (parsed.port === null || parsed.port === rules.port)
}

/** The last Host found allowed under each set of rules: a client names the same one in every request. */
const lastAllowedHost = new WeakMap<HostRules, string>()

/** Throws 403 unless the request names this hub and comes from no foreign page. */
export function checkHostAndOrigin(req: IncomingMessage, rules: HostRules): void {
  const host = req.headers.host
  if (host !== undefined && lastAllowedHost.get(rules) !== host) {
    if (!hostAllowed(host, rules))
      throw forbidden(
        `Host "${host.slice(0, 100)}" is not this hub; add it to allowedHosts in config.json to allow it`,
      )
    lastAllowedHost.set(rules, host)
  }
  const origin = req.headers.origin
  if (origin === undefined) return
  const m = /^https?:\/\/([^/]+)$/i.exec(origin)
  if (!m?.[1] || !hostAllowed(m[1], rules))
    throw forbidden(`requests from web pages of other origins are refused (Origin ${origin.slice(0, 100)})`)
}

/** Throws `invalid` unless the request's target is a path whose escapes all decode. */
export function checkTarget(target: string | undefined): void {
  if (!target?.startsWith('/')) throw invalid('the request target must be a path')
  if (!target.includes('%')) return
  const query = target.indexOf('?')
  const path = query === -1 ? target : target.slice(0, query)
  try {
    decodeURIComponent(path)
  } catch {
    throw invalid(`"${path.slice(0, 80)}" is not a valid path`)
  }
}
