// Picking a file for a message: Attach (any file), Camera (the phone's camera: `capture` on an
// image-only input; a desktop browser opens its file picker instead), and what is attached, with its
// size and a way to take it off. An image pasted into the message box is attached by the composer.
import { useRef } from 'react'
import { fileSize } from '../lib/size.ts'

export function AttachButtons({ disabled, onPick }: { disabled: boolean; onPick: (file: File) => void }) {
  const picker = useRef<HTMLInputElement>(null)
  const camera = useRef<HTMLInputElement>(null)
  const picked = (input: HTMLInputElement | null) => {
    const file = input?.files?.[0]
    if (file) onPick(file)
    // The same file picked again is a change too.
    if (input) input.value = ''
  }
  return (
    <>
      <input
        ref={picker}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="File to attach"
        onChange={(e) => picked(e.currentTarget)}
      />
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Photo to attach"
        onChange={(e) => picked(e.currentTarget)}
      />
      <button type="button" disabled={disabled} onClick={() => picker.current?.click()}>
        Attach
      </button>
      <button type="button" disabled={disabled} onClick={() => camera.current?.click()}>
        Camera
      </button>
    </>
  )
}

export function Attached({ file, onRemove }: { file: File; onRemove: () => void }) {
  return (
    <p className="attached">
      <span className="attached-name">{file.name}</span>
      <span className="muted">{fileSize(file.size)}</span>
      <button type="button" onClick={onRemove} aria-label={`Remove ${file.name}`}>
        ×
      </button>
    </p>
  )
}

/**
 * A name for a file the page made (a pasted image has none of its own, or "image.png" whatever it was;
 * a recording none at all) that says when, with its type's extension: pasted-2026-11-29-00-30-00.png.
 */
export function stampedName(what: string, type: string, fallback: string, now = new Date()): string {
  const subtype = type.split(';')[0]?.split('/')[1] ?? ''
  const extension = subtype.replace(/[^a-z0-9]/gi, '') || fallback
  const stamp = now.toISOString().slice(0, 19).replace(/[T:]/g, '-')
  return `${what}-${stamp}.${extension}`
}
