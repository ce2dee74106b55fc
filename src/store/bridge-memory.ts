// The Store's bridge-memory area: what a chat bridge remembers between messages (which session a
// chat picked with `/to`, the chat a `/new` session answers to, the attachments Claude may download,
// how often a stranger was answered), so a restarted hub, or the hub that takes the bridge's lease
// over, carries on from where the last one was. Values are read and checked by hub/bridges/memory.ts.
// `notice-choice` is a sender's choice of notices (platform `hub`, any surface's sender; read by
// hub/people/decisions.ts): kept like the rest, no table of its own for one small value. `thread` and
// `thread-session` are a session's thread in a group and back (hub/bridges/threads.ts); `thread-copy`
// is the one message a prompt or notice every operator is sent became in that thread. `progress` is
// the progress level a chat or a thread chose (`/progress`, hub/bridges/progress-level.ts);
// `message-thread` is where a message written in a thread lives when that is not its group (a
// Discord thread's channel). `transcript` is a voice note's transcript waiting for its sender's Send,
// Edit or Cancel (hub/bridges/voice.ts).

export const BRIDGE_MEMORY_KINDS = [
  'route',
  'session-chat',
  'attachment',
  'replies',
  'notice',
  'notice-choice',
  'thread',
  'thread-session',
  'thread-copy',
  'progress',
  'message-thread',
  'transcript',
] as const
export type BridgeMemoryKind = (typeof BRIDGE_MEMORY_KINDS)[number]

/** Kinds that only matter for a while: retention deletes them once they are old. */
export const PASSING_MEMORY: readonly BridgeMemoryKind[] = [
  'attachment',
  'replies',
  'notice',
  'thread-copy',
  'message-thread',
  'transcript',
]

export interface BridgeMemoryStore {
  /** Keeps `value` under (platform, kind, key), replacing what was there (and its count). */
  remember(
    platform: string,
    kind: BridgeMemoryKind,
    key: string,
    value: Record<string, unknown>,
    now: number,
  ): Promise<void>
  recall(platform: string, kind: BridgeMemoryKind, key: string): Promise<Record<string, unknown> | null>
  forget(platform: string, kind: BridgeMemoryKind, key: string): Promise<void>
  /**
   * One more under (platform, kind, key), from 0 when nothing is there: the new count. One statement,
   * so two hubs counting at once lose neither.
   */
  countUp(platform: string, kind: BridgeMemoryKind, key: string, now: number): Promise<number>
  /** Keeps the newest `keep` entries of one kind on one platform; older ones go. */
  trimMemory(platform: string, kind: BridgeMemoryKind, keep: number): Promise<void>
}
