// A surface that owns some chats (a chat bridge owns `telegram:…` ones): it checks a reply before the
// hub accepts it and does what else Claude may do there (react, edit, download, read history).
// The hub knows surfaces only through this, so it never reaches out to a platform itself.
import type { ChatAction } from '../../core/hub-protocol.js'
import type { Chat } from '../../store/store.js'

export interface ReplyExtras {
  replyTo?: string
  files?: string[]
  /** The replying session's working folder, which its files may come from. */
  folder?: string
}

export interface ChatSurface {
  owns(chat: Chat): boolean
  /** Why this reply cannot be accepted (a file it may not send, a chat it may not write to), or null. */
  refuse(chat: Chat, extras: ReplyExtras): Promise<string | null>
  act(chat: Chat, action: ChatAction, from: string): Promise<{ ok: boolean; message: string }>
}
