// A hub's address as a person writes it (`host:port`, IPv6 in brackets, pinned by `#sha256:<hex>`):
// SWITCHBOARD_HUBS, SWITCHBOARD_ADVERTISE, and the address a hub advertises in its lease.
import * as z from 'zod'
import { normalizeFingerprint } from '../fingerprint.js'
import { hostPort } from '../network.js'
import { lazySchema, listOf } from './define.js'

export interface HubAddress {
  host: string
  port: number
  /** The SHA-256 of the hub's TLS certificate, as `host:port#sha256:<hex>` pins it. */
  fingerprint?: string
}

export const portSchema = lazySchema(() =>
  z.coerce
    .number({ error: 'port must be a number' })
    .int('port must be a whole number')
    .min(1, 'port must be between 1 and 65535')
    .max(65535, 'port must be between 1 and 65535'),
)

/** One address, or what is wrong with it (`hint` is said after "is not host:port"). */
export function parseHubAddress(raw: string, hint = ''): HubAddress | string {
  const text = raw.trim()
  const m = /^(\[[^\]]+\]|[^:\s,#]+):(\d+)(?:#(.*))?$/.exec(text)
  if (!m) return `"${text}" is not host:port${hint}`
  const port = portSchema().safeParse(m[2])
  if (!port.success) return `${text}: ${port.error.issues[0]?.message}`
  const address = { host: (m[1] as string).replace(/^\[|\]$/g, ''), port: port.data }
  if (m[3] === undefined) return address
  const fingerprint = /^sha256:(.+)$/i.exec(m[3])?.[1]
  const normalized = fingerprint ? normalizeFingerprint(fingerprint) : null
  if (!normalized)
    return `"${text}": after # comes the hub's certificate as sha256:<64 hex digits> (switchboard status on the hub prints it)`
  return { ...address, fingerprint: normalized }
}

/** A hub's address as another hub advertised it (its lease), or null when it is none. */
export function advertisedHub(raw: string): HubAddress | null {
  const parsed = parseHubAddress(raw)
  return typeof parsed === 'string' ? null : parsed
}

/** How an address is written back: `host:port`, pinned when it has a fingerprint. */
export function hubAddressText({ host, port, fingerprint }: HubAddress): string {
  return `${hostPort(host, port)}${fingerprint ? `#sha256:${fingerprint}` : ''}`
}

/** A list of addresses; the first one that is none is the message. */
export const hubListSchema = lazySchema(() =>
  listOf(z.string()).transform((list, ctx) => {
    const hubs: HubAddress[] = []
    for (const raw of list.filter((part) => part.trim())) {
      const parsed = parseHubAddress(raw, ' (hubs are separated by commas)')
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed })
        return z.NEVER
      }
      hubs.push(parsed)
    }
    return hubs
  }),
)

/** One address this hub is reached at, written back as `host:port` (a pin given is not its to give). */
export const advertiseSchema = lazySchema(() =>
  z.string().transform((raw, ctx) => {
    const parsed = parseHubAddress(raw)
    if (typeof parsed !== 'string') return hostPort(parsed.host, parsed.port)
    ctx.addIssue({ code: 'custom', message: parsed })
    return z.NEVER
  }),
)

/** The URL without its password, to name in messages and logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
}
