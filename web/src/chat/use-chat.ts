// The web chat while its page shows: the messages kept in memory (chat-store.ts) and Claude's replies live
// from GET /api/chat/stream. The browser reconnects by itself with Last-Event-ID; when the hub refused
// the stream it is opened afresh, and the replies it replays that are already shown are dropped.
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { ChatReply } from '../../../src/core/api/rows.ts'
import { streamPath } from '../api/client.ts'
import { keepStream, type StreamMessage } from '../api/stream.ts'
import type { StreamState } from '../transcript/use-transcript.ts'
import { addReply, type ChatMessage, chatStore } from './chat-store.ts'

export function useChat(): { messages: readonly ChatMessage[]; state: StreamState } {
  const messages = useSyncExternalStore(chatStore.subscribe, chatStore.snapshot)
  const [state, setState] = useState<StreamState>('connecting')

  useEffect(() => {
    const onReply = (event: StreamMessage) => {
      let reply: ChatReply
      try {
        reply = JSON.parse(event.data) as ChatReply
      } catch {
        return
      }
      addReply(Number(event.lastEventId), reply)
    }
    return keepStream(() => streamPath('chatStream'), {
      events: { reply: onReply },
      open: () => setState('live'),
      broken: () => setState('reconnecting'),
    })
  }, [])

  return { messages, state }
}
