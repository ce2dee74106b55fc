// What the parts of one bridge share: the hub, the platform's adapter while it is connected, the
// bridge's settings, and what it remembers between messages.
import type { DrivenAgent } from '../../core/agents.js'
import type { BridgeConfig, BridgePlatform } from '../../core/bridges.js'
import { TEXT_LIMITS } from '../../core/bridges.js'
import type { StoredEvent } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'
import type { Hub } from '../core/hub.js'
import type { BridgeMemory } from './memory.js'
import type { Threads } from './threads.js'

/** The driven sessions, as far as a chat may steer them (implemented by the SessionManager). */
/**
 * What a session ended is told as: its thread's last line, and the thread closed (threads.ts). Here,
 * not in delivery.ts, so that the manager tells it without loading a bridge's machinery.
 */
export const THREAD_END = 'thread-end'

export interface SessionControl {
  create(
    prompt: string,
    options: { cwd: string },
    extra: { topics?: string[]; startedBy?: string },
  ): Promise<{ id: string }>
  stop(id: string, reason?: string): Promise<unknown>
  list(): Promise<{ id: string; cwd: string | null; status: string; live: boolean; agent?: DrivenAgent }[]>
  /** Sessions whose CLI ended while the hub runs on, with why. */
  onEnded(listener: (id: string, reason: string | null) => void): () => void
  onLine(
    listener: (id: string, seq: number, line: { type: string; [key: string]: unknown }) => void,
  ): () => void
}

/** The routines, as far as a chat may fire them (implemented by Routines). */
export interface RoutineControl {
  list(): Promise<{ name: string; paused: boolean }[]>
  /** Throws, saying why, when the routine is not an operator's to start (see Routines.mayStart). */
  mayStart(name: string, admin: boolean): Promise<void>
  fire(name: string, given: Partial<StoredEvent>, by: string): Promise<{ id: string; state: string }>
}

export interface BridgeContext {
  readonly platform: BridgePlatform
  readonly hub: Hub
  readonly sessions: SessionControl | null
  readonly routines: RoutineControl | null
  readonly log: Logger
  readonly home: string
  config(): BridgeConfig
  /** The adapter while it is connected; null while the bridge (re)connects. */
  adapter(): PlatformAdapter | null
  /** What the bridge remembers between messages (`/to`, `/new`, attachments), in the store. */
  readonly memory: BridgeMemory
  /** Each session's thread in the group added with `--topics`. */
  readonly threads: Threads
}

export function textLimit(context: BridgeContext): number {
  const platformLimit = TEXT_LIMITS[context.platform]
  return Math.min(context.config().textChunkLimit ?? platformLimit, platformLimit)
}

export { chatSourceOf, groupSenderNameOf, platformChatOf, senderNameOf } from './names.js'
