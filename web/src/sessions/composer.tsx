// Writing to a session: a message (Send, or Ctrl/⌘+Enter) and Interrupt.
import { type FormEvent, useState } from 'react'
import { call, errorText } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'

export function Composer({
  sessionId,
  speaker,
  canInterrupt,
  onSent,
}: {
  sessionId: string
  /** Who is told: "Claude", "Codex" (core/agents.ts speakerOf). */
  speaker: string
  canInterrupt: boolean
  onSent: () => void
}) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState<'send' | 'interrupt' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)

  const send = async (e?: FormEvent) => {
    e?.preventDefault()
    if (!text.trim() || busy) return
    setBusy('send')
    setError(null)
    setNote(null)
    try {
      await call('sendMessage', { params: { id: sessionId }, body: { text: text } })
      setText('')
      onSent()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(null)
    }
  }

  const interrupt = async () => {
    setBusy('interrupt')
    setError(null)
    setNote(null)
    try {
      await call('interrupt', { params: { id: sessionId } })
      setNote('Interrupted.')
      onSent()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(null)
    }
  }

  return (
    <form className="composer" onSubmit={send}>
      <label htmlFor="message" className="visually-hidden">
        Message
      </label>
      <textarea
        id="message"
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send()
        }}
        placeholder={`Tell ${speaker} what to do next`}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={busy !== null || !text.trim()}>
          {busy === 'send' ? 'Sending…' : 'Send'}
        </button>
        <button type="button" onClick={interrupt} disabled={busy !== null || !canInterrupt}>
          Interrupt
        </button>
      </div>
      <ErrorLine error={error} />
      {note ? (
        <p className="muted" role="status">
          {note}
        </p>
      ) : null}
    </form>
  )
}
