import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { discordProblem, slackProblem } from '../../../test/fakes/markup-rules.js'
import { parseTelegramHtml } from '../../../test/fakes/telegram-markup.js'
import { discordRenderer, formatForDiscord } from '../discord/format.js'
import { formatForSlack, slackRenderer } from '../slack/format.js'
import { formatForTelegram, telegramRenderer } from '../telegram/format.js'
import {
  type ChunkMode,
  chunkDoc,
  type FormattedText,
  fitting,
  type MarkupRenderer,
} from './chunk-markdown.js'
import { type Doc, parseMarkdown, visibleText } from './markdown.js'

/** Claude's markdown and what breaks markups: markers alone, brackets, backticks, fences, pings, emoji. */
const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('word', 'snake_case_name', 'x', ' ', ' ', ' ', '\n', '\n\n') },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '*',
      '**',
      '_',
      '__',
      '~',
      '~~',
      '`',
      '``',
      '```',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '&',
      '\\',
      '#',
      '|',
      '||',
      '**bold**',
      '_italic_',
      '`code`',
      '~~gone~~',
      '[a link](https://example.com/a_b?q=1&r=2)',
      'https://example.com/x_y',
      '@everyone',
      '@here',
      '<@123>',
      '<!channel>',
      '&amp;',
      '&lt;b&gt;',
      '🎉',
      '👨‍💻',
      '❤️',
      '\n```py\n',
      '\n```\n',
      '\n> ',
      '\n# ',
      '\n- ',
      '\n  * ',
      '\n---\n',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constant('y'.repeat(120)) },
)
const markdown = fc.array(fragment, { maxLength: 160 }).map((parts) => parts.join(''))
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const mode = fc.constantFrom<ChunkMode>('length', 'newline')

function telegramProblem(html: string, limit: number): string | null {
  try {
    const { text } = parseTelegramHtml(html)
    return text.length > limit ? `shows ${text.length} characters, more than ${limit}` : null
  } catch (error) {
    return (error as Error).message
  }
}

const PLATFORMS: {
  name: string
  limit: number
  format: (markdown: string, limit: number, mode: ChunkMode) => FormattedText[]
  renderer: MarkupRenderer
  problem: (markup: string, limit: number) => string | null
}[] = [
  {
    name: 'Telegram',
    limit: 4096,
    format: formatForTelegram,
    renderer: telegramRenderer,
    problem: telegramProblem,
  },
  {
    name: 'Discord',
    limit: 2000,
    format: formatForDiscord,
    renderer: discordRenderer,
    problem: discordProblem,
  },
  { name: 'Slack', limit: 4000, format: formatForSlack, renderer: slackRenderer, problem: slackProblem },
]

/** Every character a message shows, whitespace aside: what chunking must neither lose nor repeat. */
function shown(doc: Doc): string {
  return doc
    .map((b) => (b.type === 'code' ? b.text : visibleText(b.inlines)))
    .join('')
    .replace(/\s+/g, '')
}

describe.each(PLATFORMS)('markdown for $name', ({ limit: most, format, renderer, problem }) => {
  it('always renders to markup the platform reads, each message within its limit', () => {
    fc.assert(
      fc.property(markdown, fc.integer({ min: 80, max: most }), mode, (md, limit, cut) => {
        for (const message of format(md, limit, cut)) {
          expect(problem(message.markup, limit)).toBeNull()
          expect(message.text.length).toBeLessThanOrEqual(limit)
          // Half an emoji is refused by every platform.
          expect(LONE_SURROGATE.test(message.markup)).toBe(false)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('cuts a long reply between entities, never losing or repeating a character', () => {
    fc.assert(
      fc.property(markdown, fc.integer({ min: 80, max: 400 }), mode, (md, limit, cut) => {
        const doc = parseMarkdown(md)
        const chunks = chunkDoc(doc, fitting(renderer, limit), cut)
        expect(chunks.map(shown).join('')).toBe(shown(doc))
      }),
      { numRuns: 300 },
    )
  })

  it('closes a code block cut in two and opens it again in the next message', () => {
    const code = Array.from({ length: 60 }, (_, i) => `line ${i} = a < b && c`).join('\n')
    const messages = format(`Here:\n\`\`\`ts\n${code}\n\`\`\`\nDone.`, 500, 'newline')
    expect(messages.length).toBeGreaterThan(2)
    for (const message of messages) expect(problem(message.markup, 500)).toBeNull()
    expect(messages.filter((m) => m.text.includes('```ts')).length).toBe(messages.length - 1)
  })
})

describe('markdown as each platform shows it', () => {
  const md = [
    '## Plan',
    'Use **bold**, _italic_, `a < b`, snake_case_name and [the docs](https://example.com/a?x=1&y=2) 🎉',
    '- a [bracket and 2 * 3',
    '> @everyone look',
    '```ts',
    'if (a && b) {}',
    '```',
  ].join('\n')

  it('gives Telegram HTML with its entities', () => {
    const [message] = formatForTelegram(md, 4096, 'newline')
    const { text, entities } = parseTelegramHtml(message?.markup ?? '')
    expect(text).toBe(
      'Plan\nUse bold, italic, a < b, snake_case_name and the docs 🎉\n• a [bracket and 2 * 3\n@everyone look\nif (a && b) {}',
    )
    const typed = (type: string) =>
      entities.filter((e) => e.type === type).map((e) => text.slice(e.offset, e.offset + e.length))
    expect(typed('bold')).toEqual(['Plan', 'bold'])
    expect(typed('italic')).toEqual(['italic'])
    expect(typed('code')).toEqual(['a < b'])
    expect(typed('pre')).toEqual(['if (a && b) {}'])
    expect(entities.find((e) => e.type === 'pre')?.language).toBe('ts')
    expect(entities.find((e) => e.type === 'text_link')?.url).toBe('https://example.com/a?x=1&y=2')
    expect(typed('blockquote')).toEqual(['@everyone look'])
  })

  it('gives Discord its own markdown, with nobody pinged', () => {
    const [message] = formatForDiscord(md, 2000, 'newline')
    expect(message?.markup).toBe(
      [
        '**Plan**',
        'Use **bold**, *italic*, `a < b`, snake\\_case\\_name and [the docs](<https://example.com/a?x=1&y=2>) 🎉',
        '- a [bracket and 2 \\* 3',
        '> @\u200beveryone look',
        '```ts',
        'if (a && b) {}',
        '```',
      ].join('\n'),
    )
  })

  it('keeps backticks inside Discord code from ending it, however many there are', () => {
    // Found by the property above: four backticks in a code block closed it after three.
    for (const md of ['\n```py\n*````', '```\na ``` b ```` c\n```', '`` a ``` b ``', '``` `` ```'])
      for (const message of formatForDiscord(md, 80, 'length'))
        expect(discordProblem(message.markup, 80)).toBeNull()
  })

  it('gives Slack mrkdwn, escaped', () => {
    const [message] = formatForSlack(md, 4000, 'newline')
    expect(message?.markup).toBe(
      [
        '*Plan*',
        'Use *bold*, _italic_, `a &lt; b`, snake_case_name and <https://example.com/a?x=1&amp;y=2|the docs> 🎉',
        '• a [bracket and 2 * 3',
        '>@everyone look',
        '```',
        'if (a &amp;&amp; b) {}',
        '```',
      ].join('\n'),
    )
  })

  it('keeps words plain for a platform that refuses the markup', () => {
    const [message] = formatForTelegram(md, 4096, 'newline')
    expect(message?.text).toContain('the docs (https://example.com/a?x=1&y=2)')
    expect(message?.text).toContain('```ts\nif (a && b) {}\n```')
  })
})
