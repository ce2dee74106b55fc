// Claude's markdown as Telegram shows it: parse_mode HTML, where only `&`, `<` and `>` need escaping
// and a wrong tag is a 400 "can't parse entities" (MarkdownV2 would need 18 characters escaped, each
// a chance to be refused). Telegram's nesting rules: code and pre hold no other entity, a link holds
// no code, a blockquote no other blockquote. Its 4096 characters are those shown, tags left out.

import type { ChunkMode } from '../chat/chunk-markdown.js'
import { type FormattedText, formatChunks, type MarkupRenderer } from '../chat/chunk-markdown.js'
import { type Block, type Doc, type Inline, plainInlines } from '../chat/markdown.js'

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;')
}

/** A character run and the tags it sits in, outermost first. */
interface Leaf {
  text: string
  code: boolean
  tags: string[]
}

function leaves(nodes: Inline[], tags: string[], inLink: boolean, out: Leaf[]): Leaf[] {
  for (const node of nodes) {
    if (node.type === 'text') out.push({ text: node.text, code: false, tags })
    // Telegram puts code in no other entity: in a link it is text, elsewhere its own run.
    else if (node.type === 'code') out.push({ text: node.text, code: !inLink, tags: inLink ? tags : [] })
    else if (node.type === 'link') {
      const open = `a href="${attribute(node.url)}"`
      leaves(node.children, [...tags, open], true, out)
    } else leaves(node.children, [...tags, TAG[node.type]], inLink, out)
  }
  return out
}

const TAG = { bold: 'b', italic: 'i', strike: 's' } as const

const closeTag = (tag: string) => `</${tag.split(' ')[0]}>`

function inlines(nodes: Inline[]): string {
  let html = ''
  let open: string[] = []
  for (const leaf of leaves(nodes, [], false, [])) {
    let same = 0
    while (same < open.length && same < leaf.tags.length && open[same] === leaf.tags[same]) same++
    html += open.slice(same).reverse().map(closeTag).join('')
    html += leaf.tags
      .slice(same)
      .map((tag) => `<${tag}>`)
      .join('')
    open = leaf.tags
    html += leaf.code ? `<code>${escapeHtml(leaf.text)}</code>` : escapeHtml(leaf.text)
  }
  return html + [...open].reverse().map(closeTag).join('')
}

function line(block: Extract<Block, { type: 'line' }>): string {
  if (block.style === 'heading') {
    const words = plainInlines(block.inlines)
    return words.trim() ? `<b>${escapeHtml(words)}</b>` : ''
  }
  const pad = '  '.repeat(block.indent)
  return block.style === 'bullet' ? `${pad}• ${inlines(block.inlines)}` : inlines(block.inlines)
}

export function telegramHtml(doc: Doc): string {
  const out: string[] = []
  for (let i = 0; i < doc.length; i++) {
    const block = doc[i] as Block
    if (block.type === 'code') {
      const code = escapeHtml(block.text)
      out.push(
        block.lang ? `<pre><code class="language-${block.lang}">${code}</code></pre>` : `<pre>${code}</pre>`,
      )
      continue
    }
    if (block.style !== 'quote') {
      out.push(line(block))
      continue
    }
    // Lines of one quote are one blockquote (Telegram nests none).
    const quoted: string[] = []
    for (; i < doc.length; i++) {
      const next = doc[i] as Block
      if (next.type !== 'line' || next.style !== 'quote') break
      quoted.push(inlines(next.inlines))
    }
    i--
    const text = quoted.join('\n')
    out.push(shownText(text).trim() ? `<blockquote>${text}</blockquote>` : text)
  }
  return out.join('\n')
}

const ENTITY = /&(?:amp|lt|gt|quot);/g

/** What Telegram counts of HTML: the text shown, every tag left out and each entity one character. */
export function shownText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(ENTITY, '&')
}

export const telegramRenderer: MarkupRenderer = {
  render: telegramHtml,
  measure: (markup) => shownText(markup).length,
}

export function formatForTelegram(markdown: string, limit: number, mode: ChunkMode): FormattedText[] {
  return formatChunks(markdown, limit, mode, telegramRenderer)
}
