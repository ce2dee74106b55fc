// Claude's markdown read into a small tree each platform renders its own way (telegram/format.ts,
// discord/format.ts, slack/format.ts): code blocks, lines (plain, heading, quote, bullet) and inline
// code, bold, italic, strike and links. What it does not know stays text, so nothing is ever lost;
// the tree is also what a long reply is cut along (chat/chunk-markdown.ts).

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { type: 'link'; url: string; children: Inline[] }

export type LineStyle = 'plain' | 'heading' | 'quote' | 'bullet'

export type Block =
  | { type: 'line'; style: LineStyle; indent: number; inlines: Inline[] }
  | { type: 'code'; lang: string; text: string }

export type Doc = Block[]

/** Links a platform is sure to take; `[x](src/a.ts)` and `javascript:` stay text. */
const LINK_URL = /^(?:https?:\/\/|mailto:|tg:\/\/)[^\s<>"]+$/i
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^`]*$/
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/

export function parseMarkdown(markdown: string): Doc {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  const doc: Doc = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const fence = FENCE.exec(line)
    if (fence?.[1]) {
      const mark = fence[1]
      const body: string[] = []
      let j = i + 1
      const closes = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`)
      for (; j < lines.length && !closes.test(lines[j] as string); j++) body.push(lines[j] as string)
      // An unclosed fence runs to the end, as in CommonMark.
      // A "language" longer than any language's name is no language: it would not fit a message.
      const lang = (fence[2] ?? '').length <= 20 ? (fence[2] ?? '') : ''
      doc.push({ type: 'code', lang, text: body.join('\n') })
      i = j
      continue
    }
    doc.push(lineBlock(line))
  }
  return doc
}

function lineBlock(line: string): Block {
  const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)
  if (heading) return { type: 'line', style: 'heading', indent: 0, inlines: parseInlines(heading[1] ?? '') }
  const quote = /^ {0,3}>\s?(.*)$/.exec(line)
  if (quote) return { type: 'line', style: 'quote', indent: 0, inlines: parseInlines(quote[1] ?? '') }
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line)
  if (bullet && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
    const indent = Math.floor((bullet[1] ?? '').replace(/\t/g, '  ').length / 2)
    return { type: 'line', style: 'bullet', indent, inlines: parseInlines(bullet[2] ?? '') }
  }
  return { type: 'line', style: 'plain', indent: 0, inlines: parseInlines(line) }
}

/** Emphasis by marker and run length: `*x*` `_x_` italic, `**x**` `__x__` bold, `~~x~~` strike. */
const EMPHASIS: Record<string, ('bold' | 'italic' | 'strike')[]> = {
  '*': ['italic', 'bold'],
  _: ['italic', 'bold'],
  '~': ['strike', 'strike'],
}

/** One line's inline markup; emphasis and links do not span lines here. */
export function parseInlines(source: string, inLink = false): Inline[] {
  const out: Inline[] = []
  let text = ''
  const flush = () => {
    if (text) out.push({ type: 'text', text })
    text = ''
  }
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    if (c === '\\' && ASCII_PUNCTUATION.test(source[i + 1] ?? '')) {
      text += source[i + 1]
      i += 2
      continue
    }
    if (c === '`') {
      const span = codeSpan(source, i)
      if (span) {
        flush()
        out.push({ type: 'code', text: span.text })
        i = span.end
        continue
      }
      const run = runOf(source, i, '`')
      text += source.slice(i, i + run)
      i += run
      continue
    }
    if (c === '[' && !inLink) {
      const link = linkAt(source, i)
      if (link) {
        flush()
        out.push({ type: 'link', url: link.url, children: parseInlines(link.label, true) })
        i = link.end
        continue
      }
    }
    const emphasis = emphasisAt(source, i)
    if (emphasis) {
      flush()
      out.push({ type: emphasis.type, children: parseInlines(emphasis.inner, inLink) })
      i = emphasis.end
      continue
    }
    // A run of markers that opens nothing is text as a whole: `***` must not open `*` at its end.
    const run = c === '*' || c === '_' || c === '~' ? runOf(source, i, c) : 1
    text += source.slice(i, i + run)
    i += run
  }
  flush()
  return out
}

function runOf(source: string, at: number, char: string): number {
  let n = 0
  while (source[at + n] === char) n++
  return n
}

function codeSpan(source: string, at: number): { text: string; end: number } | null {
  const run = runOf(source, at, '`')
  for (let j = source.indexOf('`', at + run); j !== -1; j = source.indexOf('`', j)) {
    const close = runOf(source, j, '`')
    if (close === run) {
      let text = source.slice(at + run, j)
      if (/^ .*[^ ].* $/s.test(text)) text = text.slice(1, -1)
      return text ? { text, end: j + close } : null
    }
    j += close
  }
  return null
}

function linkAt(source: string, at: number): { label: string; url: string; end: number } | null {
  let depth = 0
  let j = at
  for (; j < source.length; j++) {
    const c = source[j]
    if (c === '\\') j++
    else if (c === '`') {
      const span = codeSpan(source, j)
      if (span) j = span.end - 1
    } else if (c === '[') depth++
    else if (c === ']' && --depth === 0) break
  }
  if (j >= source.length || source[j + 1] !== '(') return null
  const target = /^\(<?([^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)>?\)/.exec(source.slice(j + 1))
  const url = target?.[1]
  const label = source.slice(at + 1, j)
  if (!target || !url || !label.trim() || !LINK_URL.test(url)) return null
  return { label, url, end: j + 1 + target[0].length }
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c)
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c)

/**
 * `**x**`, `_x_`, `~~x~~`… opening at `at` (a run of markers) and closed by a run as long on the
 * same line; `snake_case_name` and `2 * 3` open none.
 */
function emphasisAt(
  source: string,
  at: number,
): { type: 'bold' | 'italic' | 'strike'; inner: string; end: number } | null {
  const c = source[at] as string
  const types = EMPHASIS[c]
  if (!types) return null
  const run = runOf(source, at, c)
  const type = run <= 2 && !(c === '~' && run === 1) ? types[run - 1] : undefined
  if (!type) return null
  if (isSpace(source[at + run])) return null
  if (c === '_' && isWordChar(source[at - 1])) return null
  for (let j = at + run + 1; j < source.length; j++) {
    const here = source[j]
    if (here === '\\') {
      j++
      continue
    }
    if (here === '`') {
      const span = codeSpan(source, j)
      if (span) j = span.end - 1
      continue
    }
    if (here !== c) continue
    const close = runOf(source, j, c)
    const closes = close === run && !isSpace(source[j - 1]) && !(c === '_' && isWordChar(source[j + close]))
    if (closes) return { type, inner: source.slice(at + run, j), end: j + close }
    j += close - 1
  }
  return null
}

/** The characters a piece of inline markup shows (text and code), in order. */
export function visibleText(inlines: Inline[]): string {
  return inlines
    .map((n) => (n.type === 'text' || n.type === 'code' ? n.text : visibleText(n.children)))
    .join('')
}

/** Characters `start`..`end` of the visible text, wrapped as they were (a bold cut in two is two bolds). */
export function sliceInlines(inlines: Inline[], start: number, end: number): Inline[] {
  const out: Inline[] = []
  let at = 0
  for (const node of inlines) {
    const length =
      node.type === 'text' || node.type === 'code' ? node.text.length : visibleText(node.children).length
    const from = Math.max(start - at, 0)
    const to = Math.min(end - at, length)
    at += length
    if (to <= from) continue
    if (node.type === 'text' || node.type === 'code') out.push({ ...node, text: node.text.slice(from, to) })
    else {
      const children = sliceInlines(node.children, from, to)
      if (children.length) out.push({ ...node, children })
    }
  }
  return out
}

/**
 * The words as plain text, for a platform that refused the markup: code keeps its fences, a link
 * says where it goes.
 */
export function plainText(doc: Doc): string {
  return doc
    .map((block) => {
      if (block.type === 'code') return `\`\`\`${block.lang}\n${block.text}\n\`\`\``
      const words = plainInlines(block.inlines)
      const pad = '  '.repeat(block.indent)
      if (block.style === 'bullet') return `${pad}• ${words}`
      if (block.style === 'quote') return `> ${words}`
      return words
    })
    .join('\n')
}

export function plainInlines(inlines: Inline[]): string {
  return inlines
    .map((n) => {
      if (n.type === 'text' || n.type === 'code') return n.text
      const words = plainInlines(n.children)
      if (n.type !== 'link' || words === n.url) return words
      return `${words} (${n.url})`
    })
    .join('')
}

/** Text to be shown as itself inside markdown (a session's name, a file path): every marker escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_~[\]]/g, '\\$&').replace(/^(\s*)([#>+-])/gm, '$1\\$2')
}

/** A code block that holds `text` whatever it contains: the fence is longer than any run inside. */
export function codeBlock(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${lang}\n${text}\n${fence}`
}

/** Inline code that holds `text`: a fence longer than any run of backticks inside it. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${text}${pad}${fence}`
}
