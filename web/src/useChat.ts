// The web chat while its page shows: the messages kept in memory (chat.ts) and Claude's replies live
// from GET /api/chat/stream. The browser reconnects by itself with Last-Event-ID; when the hub refused
// the stream it is opened afresh, and the replies it replays that are already shown are dropped.
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { ChatReply } from '../../src/core/dashboard-api.ts'
import { checkSignedIn, streamUrl } from './api.ts'
import { addReply, type ChatMessage, chatStore } from './chat.ts'
import type { StreamState } from './useTranscript.ts'

const RETRY_MS = 3_000

export function useChat(): { messages: readonly ChatMessage[]; state: StreamState } {
  const messages = useSyncExternalStore(chatStore.subscribe, chatStore.snapshot)
  const [state, setState] = useState<StreamState>('connecting')

  useEffect(() => {
    let source: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false

    const onReply = (event: MessageEvent<string>) => {
      let reply: ChatReply
      try {
        reply = JSON.parse(event.data) as ChatReply
      } catch {
        return
      }
      addReply(Number(event.lastEventId), reply)
    }

    const connect = () => {
      const es = new EventSource(streamUrl.chat())
      source = es
      es.addEventListener('open', () => setState('live'))
      es.addEventListener('reply', onReply as EventListener)
      es.addEventListener('error', () => {
        if (stopped) return
        setState('reconnecting')
        if (es.readyState === EventSource.CLOSED) {
          es.close()
          void checkSignedIn()
          retry = setTimeout(connect, RETRY_MS)
        }
      })
    }
    connect()

    return () => {
      stopped = true
      source?.close()
      clearTimeout(retry)
    }
  }, [])

  return { messages, state }
}
