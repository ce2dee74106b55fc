import { describe, expect, it } from 'vitest'
import { CantParse, parseTelegramHtml, parseTelegramMarkdownV2 } from './telegram-markup.js'

describe('the fake Telegram reads markup as the Bot API does', () => {
  it('refuses HTML Telegram cannot parse', () => {
    for (const bad of [
      'a < b',
      'fish & chips',
      '<b>open',
      '<b><i>crossed</b></i>',
      '<foo>x</foo>',
      '<b><code>x</code></b>',
      '<a href="/relative">x</a>',
      '<blockquote><blockquote>x</blockquote></blockquote>',
    ]) {
      expect(() => parseTelegramHtml(bad), bad).toThrow(CantParse)
    }
  })

  it('reads valid HTML into the text shown and its entities', () => {
    const html =
      '<b>bold <i>both</i></b> &lt;tag&gt; &amp; <a href="https://x.example/?a=1&amp;b=2">link</a>\n<pre><code class="language-py">print(1)</code></pre>'
    const { text, entities } = parseTelegramHtml(html)
    expect(text).toBe('bold both <tag> & link\nprint(1)')
    expect(entities).toEqual([
      { type: 'bold', offset: 0, length: 9 },
      { type: 'italic', offset: 5, length: 4 },
      { type: 'text_link', offset: 18, length: 4, url: 'https://x.example/?a=1&b=2' },
      { type: 'pre', offset: 23, length: 8, language: 'py' },
    ])
  })

  it('refuses MarkdownV2 with a reserved character unescaped or an entity left open', () => {
    expect(() => parseTelegramMarkdownV2('Done.')).toThrow(/reserved/)
    expect(() => parseTelegramMarkdownV2('a *bold')).toThrow(CantParse)
    expect(() => parseTelegramMarkdownV2('[x](https://a.example')).toThrow(CantParse)
    expect(parseTelegramMarkdownV2('*bold* and `a.b` done\\.').text).toBe('bold and a.b done.')
  })
})
