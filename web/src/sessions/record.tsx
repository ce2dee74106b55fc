// Speaking a message: Record takes the microphone (MediaRecorder), Stop ends the recording, and the
// hub has it transcribed by the configured speech-to-text service (POST /api/transcriptions). The words
// go into the message box for the person to read and edit; nothing is sent until they press Send. When
// it cannot be transcribed (no service configured, the service failing) the hub's line is shown and
// the recording may be attached as a file instead.
import { useEffect, useRef, useState } from 'react'
import { call, errorText } from '../api/client.ts'
import { stampedName } from './attach.tsx'

export type Recording =
  | { state: 'idle' }
  | { state: 'recording' }
  | { state: 'transcribing' }
  /** Not transcribed: why, and the recording, which may go as a file. */
  | { state: 'failed'; why: string; file: File | null }

export interface Recorder {
  recording: Recording
  start: () => Promise<void>
  stop: () => void
  /** Back to idle, the recording dropped. */
  reset: () => void
}

/** The microphone, recorded until stop(); the words handed to `onWords`. */
export function useRecorder(onWords: (words: string) => void): Recorder {
  const [recording, setRecording] = useState<Recording>({ state: 'idle' })
  const recorder = useRef<MediaRecorder | null>(null)
  // The words reach the box as it is when they come, not as it was when Record was pressed.
  const wordsTo = useRef(onWords)
  wordsTo.current = onWords
  // The microphone is let go when the page goes, recording or not.
  useEffect(() => () => release(recorder.current), [])

  const transcribe = async (file: File) => {
    setRecording({ state: 'transcribing' })
    try {
      const { text } = await call('transcribe', { query: {}, file })
      setRecording({ state: 'idle' })
      wordsTo.current(text)
    } catch (err) {
      setRecording({ state: 'failed', why: errorText(err), file })
    }
  }

  const start = async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setRecording({
        state: 'failed',
        why: 'This browser cannot record here: recording needs the page over HTTPS (or on this computer).',
        file: null,
      })
      return
    }
    let stream: MediaStream
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true })
    } catch (err) {
      setRecording({ state: 'failed', why: `No microphone to record with (${errorText(err)}).`, file: null })
      return
    }
    const taking = new MediaRecorder(stream)
    const chunks: Blob[] = []
    taking.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data)
    }
    taking.onstop = () => {
      release(taking)
      recorder.current = null
      const type = taking.mimeType || 'audio/webm'
      void transcribe(new File(chunks, stampedName('recording', type, 'webm'), { type }))
    }
    recorder.current = taking
    taking.start()
    setRecording({ state: 'recording' })
  }

  const stop = () => {
    if (recorder.current?.state === 'recording') recorder.current.stop()
  }

  return { recording, start, stop, reset: () => setRecording({ state: 'idle' }) }
}

function release(recorder: MediaRecorder | null): void {
  for (const track of recorder?.stream.getTracks() ?? []) track.stop()
}

/** Record, and Stop while recording: one button whose word says what a press does. */
export function RecordButton({ recorder, disabled }: { recorder: Recorder; disabled: boolean }) {
  const { recording, start, stop } = recorder
  const on = recording.state === 'recording'
  return (
    <button
      type="button"
      className={on ? 'recording' : undefined}
      aria-pressed={on}
      disabled={!on && (disabled || recording.state === 'transcribing')}
      onClick={() => (on ? stop() : void start())}
    >
      {on ? 'Stop' : 'Record'}
    </button>
  )
}

/** What the recorder is doing, and what may be done about a recording that was not transcribed. */
export function RecordingLine({
  recorder,
  onAttach,
}: {
  recorder: Recorder
  onAttach: (file: File) => void
}) {
  const { recording, reset } = recorder
  if (recording.state === 'recording' || recording.state === 'transcribing')
    return (
      <p className="muted" role="status">
        {recording.state === 'recording' ? 'Recording… press Stop when you are done.' : 'Transcribing…'}
      </p>
    )
  if (recording.state !== 'failed') return null
  const { why, file } = recording
  return (
    <div className="recording-failed">
      <p className="error" role="alert">
        {why}
      </p>
      <div className="row">
        {file ? (
          <button
            type="button"
            onClick={() => {
              onAttach(file)
              reset()
            }}
          >
            Attach recording
          </button>
        ) : null}
        <button type="button" onClick={reset}>
          Dismiss
        </button>
      </div>
    </div>
  )
}
