// Claude's markdown as Slack shows it: mrkdwn, where bold is `*x*`, italic `_x_`, strike `~x~`, a
// link `<url|text>`, and `&`, `<`, `>` must always be escaped (a raw `<!channel>` would ping everyone).
// Slack has no backslash escape and no language on a code block. 4000 characters per message.
import {
  type ChunkMode,
  type FormattedText,
  formatChunks,
  type MarkupRenderer,
} from '../chat/chunk-markdown.js'
import { type Block, type Doc, type Inline, plainInlines } from '../chat/markdown.js'

export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Slack escapes no backtick: in code or text it becomes a look-alike that opens and ends nothing. */
function codeText(text: string): string {
  return escapeSlack(text).replace(/`/g, 'ˋ')
}

function inlines(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          // Two backticks that were text would make code of what lies between: they become look-alikes.
          return codeText(node.text)
        case 'code':
          return `\`${codeText(node.text)}\``
        case 'bold':
          return `*${inlines(node.children)}*`
        case 'italic':
          return `_${inlines(node.children)}_`
        case 'strike':
          return `~${inlines(node.children)}~`
        default: {
          // a link
          const url = escapeSlack(node.url).replace(/\|/g, '%7C')
          return `<${url}|${codeText(plainInlines(node.children))}>`
        }
      }
    })
    .join('')
}

function block(b: Block): string {
  if (b.type === 'code') return `\`\`\`\n${codeText(b.text)}\n\`\`\``
  if (b.style === 'heading') {
    const words = plainInlines(b.inlines)
    return words.trim() ? `*${codeText(words)}*` : ''
  }
  if (b.style === 'quote') return `>${inlines(b.inlines)}`
  if (b.style === 'bullet') return `${'  '.repeat(b.indent)}• ${inlines(b.inlines)}`
  return inlines(b.inlines)
}

export function slackMrkdwn(doc: Doc): string {
  return doc.map(block).join('\n')
}

export const slackRenderer: MarkupRenderer = {
  render: slackMrkdwn,
  measure: (markup) => markup.length,
}

export function formatForSlack(markdown: string, limit: number, mode: ChunkMode): FormattedText[] {
  return formatChunks(markdown, limit, mode, slackRenderer)
}
