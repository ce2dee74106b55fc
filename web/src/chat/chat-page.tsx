// `#/chat`: the web chat, like the official fakechat. Write to every session that takes chat or to
// one connected channel session; your messages show at once (marked failed, with why, when the hub
// refused them), Claude's replies come live with the session that wrote them.
import { type FormEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { call } from '../api/client.ts'
import { usePoll } from '../api/use-poll.ts'
import { clockTime, fullTime } from '../lib/time.ts'
import { type ChatMessage, resendChat, type SentMessage, sendChat } from './chat-store.ts'
import { useChat } from './use-chat.ts'

const POLL_MS = 10_000

function atBottom(): boolean {
  const doc = document.documentElement
  return window.innerHeight + window.scrollY >= doc.scrollHeight - 120
}

export function ChatPage() {
  const { messages, state } = useChat()
  const channels = usePoll(
    useCallback(() => call('channels'), []),
    POLL_MS,
  )
  const [to, setTo] = useState('')
  const [text, setText] = useState('')
  const box = useRef<HTMLTextAreaElement>(null)
  const stick = useRef(true)

  useEffect(() => {
    const onScroll = () => {
      stick.current = atBottom()
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when messages come or change
  useLayoutEffect(() => {
    if (stick.current) window.scrollTo(0, document.documentElement.scrollHeight)
  }, [messages])

  const connected = (channels.data?.channels ?? []).filter((c) => c.connected).map((c) => c.name)
  // A session chosen before it went away stays chosen, and says so, rather than silently becoming "all".
  const names = to && !connected.includes(to) ? [...connected, to] : connected

  const send = (e?: FormEvent) => {
    e?.preventDefault()
    if (!text.trim()) return
    stick.current = true
    void sendChat(text, to || null)
    setText('')
    box.current?.focus()
  }

  return (
    <main className="chat-page">
      <h1>Chat</h1>
      <p className="muted chat-note">
        Earlier messages you sent are not kept: after a reload only Claude’s replies show.
      </p>
      <section className="chat-log" role="log" aria-label="Conversation">
        {messages.length === 0 ? (
          <p className="muted chat-empty">
            {state === 'connecting'
              ? 'Loading the replies…'
              : 'No messages yet. Write below: the sessions that take chat get it, and their replies show here.'}
          </p>
        ) : (
          messages.map((m) => <ChatBubble key={m.key} message={m} />)
        )}
      </section>
      {state === 'reconnecting' ? (
        <p className="muted" role="status">
          Reconnecting…
        </p>
      ) : null}
      <form className="composer chat-composer" onSubmit={send}>
        <div className="chat-to">
          <label htmlFor="chat-to">To</label>
          <select id="chat-to" value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="">All sessions</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {connected.includes(name) ? name : `${name} (not connected)`}
              </option>
            ))}
          </select>
        </div>
        {channels.error ? (
          <p className="error chat-channels-error">Cannot list the sessions: {channels.error}</p>
        ) : null}
        <div className="chat-write">
          <label htmlFor="chat-text" className="visually-hidden">
            Chat message
          </label>
          <textarea
            id="chat-text"
            ref={box}
            rows={2}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send()
            }}
            placeholder="Write to Claude"
          />
          <button type="submit" className="primary" aria-label="Send message" disabled={!text.trim()}>
            Send
          </button>
        </div>
      </form>
    </main>
  )
}

function ChatBubble({ message: m }: { message: ChatMessage }) {
  const when = (
    <time dateTime={new Date(m.at).toISOString()} title={fullTime(m.at)}>
      {clockTime(m.at)}
    </time>
  )
  if (m.kind === 'reply')
    return (
      <div className="chat-msg theirs">
        <p className="chat-who">
          <span className="chat-from mono">{m.from}</span> {when}
        </p>
        <p className="chat-text">{m.text}</p>
      </div>
    )
  return (
    <div className={`chat-msg mine${m.status === 'failed' ? ' failed' : ''}`}>
      <p className="chat-who">
        <span className="chat-from">You</span>
        <span className="muted">
          {' '}
          to {m.to === null ? 'all sessions' : <span className="mono">{m.to}</span>}
        </span>{' '}
        {when}
      </p>
      <p className="chat-text">{m.text}</p>
      <SentStatus message={m} />
    </div>
  )
}

function SentStatus({ message: m }: { message: SentMessage }) {
  if (m.status === 'sending') return <p className="chat-status muted">Sending…</p>
  if (m.status === 'failed')
    return (
      <div className="chat-status chat-failed">
        <p className="error">Not sent: {m.error}</p>
        <button type="button" onClick={() => void resendChat(m.key)}>
          Send again
        </button>
      </div>
    )
  if (m.sessions === 0)
    return (
      <p className="chat-status warn">
        No session takes chat right now; the message is kept for the next one.
      </p>
    )
  return (
    <p className="chat-status muted">
      Sent to {m.sessions} session{m.sessions === 1 ? '' : 's'}
    </p>
  )
}
