import { BRIDGE_PLATFORMS } from './bridges.js'

// Names of event sources the hub uses itself: a webhook source by one of these names could pass for
// chat, a peer or a bridge.
const RESERVED_SOURCES = new Set<string>([
  'http',
  'peer',
  'hub',
  'switchboard',
  'cli',
  'api',
  'mcp',
  'session',
  'routine',
  'web',
  'webchat',
  ...BRIDGE_PLATFORMS,
])

export function isReservedSource(name: string): boolean {
  return RESERVED_SOURCES.has(name.toLowerCase())
}
