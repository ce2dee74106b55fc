// Claude's markdown as Discord shows it: Discord renders markdown itself, so the text mostly passes
// through, written back from the tree so a long reply can be cut without breaking a code block.
// What would ping (@everyone, @here, <@id>, <@&role>, <#channel>) is broken with a zero-width space,
// and a marker that was text stays text (`\*`). 2000 characters of markup per message.
import {
  type ChunkMode,
  type FormattedText,
  formatChunks,
  type MarkupRenderer,
} from '../chat/chunk-markdown.js'
import { type Block, type Doc, type Inline, plainInlines } from '../chat/markdown.js'

const ZWSP = '\u200b'
const URL_IN_TEXT = /(https?:\/\/[^\s<>]+)/

/**
 * Text shown as itself: markers escaped, pings broken. A URL goes in `<…>`: Discord links it whole
 * (an escape inside would break it) and it cannot run on into the markup after it.
 */
export function escapeDiscord(text: string, inLink = false): string {
  return text
    .split(URL_IN_TEXT)
    .map((part, i) => {
      if (i % 2 === 1) {
        if (inLink) return part
        const [, url, trailing] = /^(.*?)([.,:;"')\]]*)$/s.exec(part) ?? ['', part, '']
        return `<${url}>${trailing}`
      }
      const escaped = part.replace(inLink ? /[\\*_~`|[\]]/g : /[\\*_~`|]/g, '\\$&')
      return unping(escaped)
    })
    .join('')
}

function unping(text: string): string {
  return text.replace(/@(everyone|here)/g, `@${ZWSP}$1`).replace(/<([@#])/g, `<${ZWSP}$1`)
}

/** Each run of at least `from` backticks with its backticks kept apart, so no such run is left. */
function brokenRuns(text: string, from: number): string {
  return text.replace(new RegExp(`\`{${from},}`, 'g'), (run) => run.split('').join(ZWSP))
}

function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(Math.min(longest + 1, 2))
  // Discord has no fence longer than two backticks: a run of two or more inside is broken instead.
  const body = longest >= 2 ? brokenRuns(text, 2) : text
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${body}${pad}${fence}`
}

function inlines(nodes: Inline[], inLink = false): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return escapeDiscord(node.text, inLink)
        case 'code':
          return code(node.text)
        case 'bold':
          return `**${inlines(node.children, inLink)}**`
        case 'italic':
          return `*${inlines(node.children, inLink)}*`
        case 'strike':
          return `~~${inlines(node.children, inLink)}~~`
        default: // a link
          return `[${inlines(node.children, true)}](<${node.url}>)`
      }
    })
    .join('')
}

function block(b: Block): string {
  if (b.type === 'code') {
    // A fence inside the code would end the block early: its backticks are broken up.
    return `\`\`\`${b.lang}\n${brokenRuns(b.text, 3)}\n\`\`\``
  }
  if (b.style === 'heading') {
    const words = plainInlines(b.inlines)
    return words.trim() ? `**${escapeDiscord(words)}**` : ''
  }
  if (b.style === 'quote') return `> ${inlines(b.inlines)}`
  if (b.style === 'bullet') return `${'  '.repeat(b.indent)}- ${inlines(b.inlines)}`
  // A plain line that Discord would read as a heading, quote or list is not one here.
  return inlines(b.inlines).replace(/^(\s*)(#{1,3} |>|[-*+] )/, '$1\\$2')
}

export function discordMarkdown(doc: Doc): string {
  return doc.map(block).join('\n')
}

export const discordRenderer: MarkupRenderer = {
  render: discordMarkdown,
  measure: (markup) => markup.length,
}

export function formatForDiscord(markdown: string, limit: number, mode: ChunkMode): FormattedText[] {
  return formatChunks(markdown, limit, mode, discordRenderer)
}
