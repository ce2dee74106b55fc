// Telegram's two markups as the Bot API reads them, for the fake (a 400 "can't parse entities" for
// what Telegram refuses) and for the property tests (what the hub renders always parses). HTML: the
// tags Telegram knows, `&`, `<`, `>` escaped, tags closed in order, and its nesting rules (bold,
// italic, underline, strike and spoiler nest anywhere but in code or pre, and hold neither; a link
// holds only those; a blockquote anything but a blockquote). MarkdownV2: the 18 reserved characters escaped outside
// entities, every entity closed. Both: at most 4096 characters shown.

export interface TelegramEntity {
  type: string
  offset: number
  length: number
  url?: string
  language?: string
}

export class CantParse extends Error {}

const FREE = new Set(['bold', 'italic', 'underline', 'strikethrough', 'spoiler'])
const TAGS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  code: 'code',
  pre: 'pre',
  a: 'text_link',
  blockquote: 'blockquote',
}
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' }
const URL = /^(?:https?:\/\/|tg:\/\/|mailto:)\S+$/i

interface Open {
  tag: string
  type: string
  start: number
  at: number
  url?: string
  language?: string
}

/** Checks that `outer` may hold an entity of type `inner`, as Telegram's nesting rules say. */
function mayHold(outer: Open, inner: string): boolean {
  if (outer.type === 'pre') return inner === 'code'
  if (outer.type === 'code') return false
  if (FREE.has(outer.type)) return inner !== 'pre' && inner !== 'code'
  // A quote holds any entity but another quote (checked apart); a link only the free ones.
  if (outer.type === 'blockquote') return true
  return FREE.has(inner)
}

function decode(entity: string, at: number): string {
  const numeric = /^#(?:x([0-9a-f]+)|(\d+))$/i.exec(entity)
  if (numeric)
    return String.fromCodePoint(Number.parseInt(numeric[1] ?? numeric[2] ?? '', numeric[1] ? 16 : 10))
  const named = NAMED[entity]
  if (named === undefined) throw new CantParse(`Unsupported HTML entity "&${entity};" at byte offset ${at}`)
  return named
}

export function parseTelegramHtml(html: string): { text: string; entities: TelegramEntity[] } {
  let text = ''
  const entities: TelegramEntity[] = []
  const stack: Open[] = []
  let i = 0
  while (i < html.length) {
    const c = html[i] as string
    if (c === '&') {
      const end = html.indexOf(';', i)
      const name = end === -1 ? '' : html.slice(i + 1, end)
      if (!/^(?:#x[0-9a-f]+|#\d+|[a-z]+)$/i.test(name))
        throw new CantParse(`Character '&' is reserved and must be escaped at byte offset ${i}`)
      text += decode(name, i)
      i = end + 1
      continue
    }
    if (c === '>') throw new CantParse(`Character '>' is reserved and must be escaped at byte offset ${i}`)
    if (c !== '<') {
      text += c
      i++
      continue
    }
    const end = html.indexOf('>', i)
    if (end === -1) throw new CantParse(`Unclosed start tag at byte offset ${i}`)
    const tag = html.slice(i + 1, end)
    const closing = /^\/([a-z-]+)\s*$/i.exec(tag)
    if (closing) {
      const name = (closing[1] as string).toLowerCase()
      const open = stack.pop()
      if (!open || open.tag !== name)
        throw new CantParse(
          `Unmatched end tag at byte offset ${i}, expected "</${open?.tag ?? ''}>", found "</${name}>"`,
        )
      const length = text.length - open.start
      if (open.type === 'code' && stack.at(-1)?.type === 'pre') {
        const pre = stack.at(-1) as Open
        if (open.language) pre.language = open.language
      } else if (length > 0) {
        const entity: TelegramEntity = { type: open.type, offset: open.start, length }
        if (open.url) entity.url = open.url
        if (open.language) entity.language = open.language
        entities.push(entity)
      }
      i = end + 1
      continue
    }
    const start = /^([a-z-]+)((?:\s+[a-z-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))*)\s*$/i.exec(tag)
    if (!start) throw new CantParse(`Unsupported start tag "${tag.split(/\s/)[0]}" at byte offset ${i}`)
    let name = (start[1] as string).toLowerCase()
    const attributes = Object.fromEntries(
      [...(start[2] ?? '').matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi)].map((m) => [
        (m[1] as string).toLowerCase(),
        unescapeAttribute(m[2] ?? m[3] ?? m[4] ?? ''),
      ]),
    )
    if (name === 'span' && attributes.class === 'tg-spoiler') name = 'tg-spoiler'
    const type = TAGS[name]
    if (!type) throw new CantParse(`Unsupported start tag "${name}" at byte offset ${i}`)
    const outer = stack.at(-1)
    if (outer && !mayHold(outer, type))
      throw new CantParse(`Entity "${type}" can't be nested in "${outer.type}" at byte offset ${i}`)
    if (type === 'blockquote' && stack.some((o) => o.type === 'blockquote'))
      throw new CantParse(`Blockquote can't be nested at byte offset ${i}`)
    const open: Open = { tag: name, type, start: text.length, at: i }
    if (type === 'text_link') {
      const href = attributes.href ?? ''
      if (!URL.test(href)) throw new CantParse(`Wrong URL "${href}" at byte offset ${i}`)
      open.url = href
    }
    if (type === 'code' && attributes.class) {
      if (outer?.type !== 'pre' || !/^language-[\w+#.-]+$/.test(attributes.class))
        throw new CantParse(`Wrong class "${attributes.class}" of "code" at byte offset ${i}`)
      open.language = attributes.class.slice('language-'.length)
    }
    stack.push(open)
    i = end + 1
  }
  const open = stack.pop()
  if (open) throw new CantParse(`Can't find end tag corresponding to start tag "${open.tag}"`)
  return { text, entities: entities.sort((a, b) => a.offset - b.offset || b.length - a.length) }
}

function unescapeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (_, e: string) => decode(e, 0))
}

const RESERVED = new Set('_*[]()~`>#+-=|{}.!'.split(''))

/** MarkdownV2 as Telegram reads it; throws CantParse where Telegram answers 400. */
export function parseTelegramMarkdownV2(source: string): { text: string; entities: TelegramEntity[] } {
  let text = ''
  const entities: TelegramEntity[] = []
  const stack: { mark: string; type: string; start: number; at: number }[] = []
  let i = 0
  const lineStart = () => i === 0 || source[i - 1] === '\n'
  while (i < source.length) {
    const c = source[i] as string
    if (c === '\\') {
      const next = source[i + 1]
      if (next === undefined || next.charCodeAt(0) > 126)
        throw new CantParse(`Character '\\' is reserved and must be escaped at byte offset ${i}`)
      text += next
      i += 2
      continue
    }
    if (c === '`') {
      const fence = source.startsWith('```', i) ? '```' : '`'
      let j = i + fence.length
      let body = ''
      for (; j < source.length && !source.startsWith(fence, j); j++) {
        if (source[j] === '\\') j++
        body += source[j] ?? ''
      }
      if (j >= source.length) throw new CantParse(`Can't find end of the entity starting at byte offset ${i}`)
      let language: string | undefined
      if (fence === '```') {
        const first = /^([\w+#.-]*)\n/.exec(body)
        if (first) {
          language = first[1] || undefined
          body = body.slice(first[0].length)
        }
      }
      const entity: TelegramEntity = {
        type: fence === '```' ? 'pre' : 'code',
        offset: text.length,
        length: body.length,
      }
      if (language) entity.language = language
      if (body.length) entities.push(entity)
      text += body
      i = j + fence.length
      continue
    }
    if (c === '[') {
      const close = findClose(source, i + 1, ']')
      if (close === -1 || source[close + 1] !== '(')
        throw new CantParse(`Can't find end of the entity starting at byte offset ${i}`)
      const urlEnd = findClose(source, close + 2, ')')
      if (urlEnd === -1) throw new CantParse(`Can't find end of the entity starting at byte offset ${i}`)
      const inner = parseTelegramMarkdownV2(source.slice(i + 1, close))
      const url = source.slice(close + 2, urlEnd).replace(/\\(.)/g, '$1')
      for (const e of inner.entities) entities.push({ ...e, offset: e.offset + text.length })
      if (inner.text.length)
        entities.push({ type: 'text_link', offset: text.length, length: inner.text.length, url })
      text += inner.text
      i = urlEnd + 1
      continue
    }
    if (c === '>' && lineStart()) {
      const end = source.indexOf('\n', i)
      const line = source.slice(i + 1, end === -1 ? source.length : end)
      const inner = parseTelegramMarkdownV2(line)
      for (const e of inner.entities) entities.push({ ...e, offset: e.offset + text.length })
      entities.push({ type: 'blockquote', offset: text.length, length: inner.text.length })
      text += inner.text
      i = end === -1 ? source.length : end
      continue
    }
    const mark = source.startsWith('__', i) ? '__' : source.startsWith('||', i) ? '||' : c
    const type = { '*': 'bold', _: 'italic', __: 'underline', '~': 'strikethrough', '||': 'spoiler' }[mark]
    if (type) {
      const top = stack.at(-1)
      if (top?.mark === mark) {
        stack.pop()
        if (text.length > top.start)
          entities.push({ type, offset: top.start, length: text.length - top.start })
      } else stack.push({ mark, type, start: text.length, at: i })
      i += mark.length
      continue
    }
    if (RESERVED.has(c))
      throw new CantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`)
    text += c
    i++
  }
  const open = stack.pop()
  if (open) throw new CantParse(`Can't find end of ${open.type} entity at byte offset ${open.at}`)
  return { text, entities }
}

function findClose(source: string, from: number, char: string): number {
  for (let j = from; j < source.length; j++) {
    if (source[j] === '\\') j++
    else if (source[j] === char) return j
  }
  return -1
}
