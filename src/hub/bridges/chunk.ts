// Long replies cut to a platform's message limit: at the limit (`length`), or where a reader would
// break (`newline`: a paragraph, else a line, else a space past half the limit).

export type ChunkMode = 'length' | 'newline'

export function chunkText(text: string, limit: number, mode: ChunkMode = 'newline'): string[] {
  if (limit < 1) throw new Error('chunk limit must be at least 1')
  const chunks: string[] = []
  let rest = text
  while (rest.length > limit) {
    let cut = mode === 'newline' ? readableCut(rest, limit) : limit
    // An emoji is two UTF-16 units: a cut between them would send half of it, which platforms refuse.
    if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut -= 1
    chunks.push(rest.slice(0, cut).trimEnd() || rest.slice(0, cut))
    rest = rest.slice(cut).replace(/^\n+/, '')
  }
  if (rest.length || chunks.length === 0) chunks.push(rest)
  return chunks
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function readableCut(text: string, limit: number): number {
  const window = text.slice(0, limit + 1)
  const half = Math.floor(limit / 2)
  for (const mark of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(mark, limit - 1)
    if (at >= half) return at + (mark === ' ' ? 1 : mark.length)
  }
  return limit
}
