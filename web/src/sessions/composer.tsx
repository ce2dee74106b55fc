// Writing to a session: a message (Send, or Ctrl/⌘+Enter), with a file attached or not, and
// Interrupt. A file goes to the session's folder of the inbox (POST /api/sessions/:id/files) with the
// words as its message; the hub's refusal (over chatFileLimitMb, a type not taken) is the error line.
// Record puts a recording's transcript in the box (record.tsx), to edit and Send, or Cancel.
import { type ClipboardEvent, type FormEvent, useState } from 'react'
import { call, errorText } from '../api/client.ts'
import { ErrorLine } from '../ui/error-line.tsx'
import { AttachButtons, Attached, stampedName } from './attach.tsx'
import { RecordButton, RecordingLine, useRecorder } from './record.tsx'

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
  const [file, setFile] = useState<File | null>(null)
  const [busy, setBusy] = useState<'send' | 'interrupt' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  // What the box held before a transcript was put in it: what Cancel gives back. Null: no transcript.
  const [beforeWords, setBeforeWords] = useState<string | null>(null)
  const recorder = useRecorder((words) => {
    setBeforeWords((before) => before ?? text)
    setText((now) => (now.trim() ? `${now.trimEnd()} ${words}` : words))
  })
  const listening = recorder.recording.state === 'recording' || recorder.recording.state === 'transcribing'

  const send = async (e?: FormEvent) => {
    e?.preventDefault()
    if ((!text.trim() && !file) || busy) return
    setBusy('send')
    setError(null)
    setNote(null)
    try {
      if (file) {
        const words = text.trim() ? text : undefined
        await call('uploadFile', { params: { id: sessionId }, query: { name: file.name, text: words }, file })
        setFile(null)
      } else await call('sendMessage', { params: { id: sessionId }, body: { text: text } })
      setText('')
      setBeforeWords(null)
      onSent()
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(null)
    }
  }

  const attach = (picked: File) => {
    setFile(picked)
    setError(null)
  }

  // An image pasted into the message box is attached, under a name of its own; text pastes as text.
  const paste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const image = [...e.clipboardData.files].find((f) => f.type.startsWith('image/'))
    if (!image) return
    e.preventDefault()
    attach(new File([image], stampedName('pasted', image.type, 'png'), { type: image.type }))
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
        onPaste={paste}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send()
        }}
        placeholder={`Tell ${speaker} what to do next`}
      />
      {file ? <Attached file={file} onRemove={() => setFile(null)} /> : null}
      {beforeWords !== null ? (
        <p className="transcribed">
          <span className="muted">Your recording, as words: edit them, then Send, or Cancel.</span>
          <button
            type="button"
            onClick={() => {
              setText(beforeWords)
              setBeforeWords(null)
            }}
          >
            Cancel
          </button>
        </p>
      ) : null}
      <RecordingLine recorder={recorder} onAttach={attach} />
      <div className="row">
        <AttachButtons disabled={busy !== null} onPick={attach} />
        <RecordButton recorder={recorder} disabled={busy !== null} />
        <button
          type="submit"
          className="primary"
          disabled={busy !== null || listening || (!text.trim() && !file)}
        >
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
