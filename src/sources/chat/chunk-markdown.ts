// A long reply cut into messages a platform takes, along the markdown's own structure: between lines
// where it can, else inside a line at a space (`newline`) or at the limit (`length`). A code block or
// a bold cut in two is closed and opened again, so every message renders on its own; a message's
// size is the platform's own measure of its markup, and its plain words (the fallback) fit too.
import type { BridgeConfig } from '../../core/bridges.js'
import { type Block, type Doc, parseMarkdown, plainText, sliceInlines, visibleText } from './markdown.js'

export type ChunkMode = BridgeConfig['chunkMode']

/** A message in the platform's markup, and the same words plain, sent when the platform refuses the markup. */
export interface FormattedText {
  markup: string
  text: string
}

export interface MarkupRenderer {
  render(doc: Doc): string
  /** The size the platform counts (Telegram: the characters shown; others: the markup's). */
  measure(markup: string): number
}

export function formatChunks(
  markdown: string,
  limit: number,
  mode: ChunkMode,
  renderer: MarkupRenderer,
): FormattedText[] {
  const fits = (doc: Doc) => renderer.measure(renderer.render(doc)) <= limit && plainText(doc).length <= limit
  return chunkDoc(parseMarkdown(markdown), fits, mode).map((doc) => ({
    markup: renderer.render(doc),
    text: plainText(doc),
  }))
}

/** Whether a message fits: its markup as the platform counts it, and its plain words for the fallback. */
export function fitting(renderer: MarkupRenderer, limit: number): (doc: Doc) => boolean {
  return (doc) => renderer.measure(renderer.render(doc)) <= limit && plainText(doc).length <= limit
}

export function chunkDoc(doc: Doc, fits: (doc: Doc) => boolean, mode: ChunkMode): Doc[] {
  const chunks: Doc[] = []
  let current: Doc = []
  const close = () => {
    const trimmed = trimBlank(current)
    if (trimmed.length) chunks.push(trimmed)
    current = []
  }
  const queue = [...doc]
  for (let block = queue.shift(); block; block = queue.shift()) {
    if (fits([...current, block])) {
      current.push(block)
      continue
    }
    const started = current.some(notBlank)
    // A reader's cut: the message so far ends at this line.
    if (mode === 'newline' && started) {
      close()
      queue.unshift(block)
      continue
    }
    const head = current
    const split = splitBlock(block, (part) => fits([...head, part]), mode)
    if (split) {
      current.push(split.head)
      close()
      queue.unshift(split.tail)
    } else if (started) {
      close()
      queue.unshift(block)
    } else {
      // Not one character fits: the limit is below the markup's own size. Sent as it is.
      current.push(block)
      close()
    }
  }
  close()
  return chunks.length ? chunks : [doc]
}

function notBlank(block: Block): boolean {
  return block.type === 'code' || block.style !== 'plain' || visibleText(block.inlines).trim() !== ''
}

function trimBlank(doc: Doc): Doc {
  let start = 0
  let end = doc.length
  while (start < end && !notBlank(doc[start] as Block)) start++
  while (end > start && !notBlank(doc[end - 1] as Block)) end--
  return doc.slice(start, end)
}

/** The largest n in 1..most for which `ok(n)` holds (ok is monotonic), or 0. */
function largest(most: number, ok: (n: number) => boolean): number {
  let lo = 0
  let hi = most
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (ok(mid)) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** An emoji is two UTF-16 units: a cut between them would send half of it, which platforms refuse. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1)
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at
}

function splitBlock(
  block: Block,
  fits: (head: Block) => boolean,
  mode: ChunkMode,
): { head: Block; tail: Block } | null {
  if (block.type === 'code') {
    const lines = block.text.split('\n')
    const code = (text: string): Block => ({ ...block, text })
    const whole = largest(lines.length - 1, (k) => fits(code(lines.slice(0, k).join('\n'))))
    if (whole > 0)
      return { head: code(lines.slice(0, whole).join('\n')), tail: code(lines.slice(whole).join('\n')) }
    const first = lines[0] as string
    const cut = safeCut(
      first,
      largest(first.length - 1, (c) => fits(code(first.slice(0, c)))),
    )
    if (cut <= 0) return null
    return { head: code(first.slice(0, cut)), tail: code([first.slice(cut), ...lines.slice(1)].join('\n')) }
  }
  const visible = visibleText(block.inlines)
  const line = (start: number, end: number): Block => ({
    ...block,
    inlines: sliceInlines(block.inlines, start, end),
  })
  let cut = safeCut(
    visible,
    largest(visible.length - 1, (n) => fits(line(0, n))),
  )
  if (cut <= 0) return null
  let resume = cut
  if (mode === 'newline') {
    const space = visible.lastIndexOf(' ', cut)
    if (space === cut) resume = cut + 1
    else if (space > 0 && space >= cut / 2) {
      cut = space
      resume = space + 1
    }
  }
  // The rest of a bullet's text is no new bullet.
  const tail = {
    ...line(resume, visible.length),
    ...(block.style === 'bullet' ? { style: 'plain' as const } : {}),
  }
  return { head: line(0, cut), tail }
}
