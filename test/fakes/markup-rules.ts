// What Discord and Slack make of a message's markup, as far as a test can say it went wrong: a code
// block or inline code left open (the rest of the message turns into code), a ping (@everyone,
// <!channel>, a user), Slack's `&`, `<`, `>` unescaped, and each platform's length. Telegram's rules
// are in telegram-markup.ts (a 400 there, so the fake refuses such a message).

const URL_IN_TEXT = /^https?:\/\/[^\s<>]+/

/** Why Discord would not show `markdown` as meant, or null. */
export function discordProblem(markdown: string, limit = 2000): string | null {
  if (markdown.length > limit) return `longer than ${limit}`
  let stars = 0
  let tildes = 0
  for (let i = 0; i < markdown.length; i++) {
    const rest = markdown.slice(i)
    if (rest[0] === '\\') {
      i++
      continue
    }
    const url = URL_IN_TEXT.exec(rest)
    if (url) {
      i += url[0].length - 1
      continue
    }
    if (rest.startsWith('```')) {
      const end = markdown.indexOf('```', i + 3)
      if (end === -1) return `code block at ${i} not closed`
      i = end + 2
      continue
    }
    if (rest[0] === '`') {
      const fence = rest.startsWith('``') ? '``' : '`'
      const end = markdown.indexOf(fence, i + fence.length)
      if (end === -1) return `inline code at ${i} not closed`
      i = end + fence.length - 1
      continue
    }
    if (/^@(everyone|here)/.test(rest) || /^<(@|#)/.test(rest)) return `a ping at ${i}: ${rest.slice(0, 12)}`
    if (rest[0] === '*') stars++
    if (rest[0] === '~') tildes++
  }
  if (stars % 2 || tildes % 2) return 'an emphasis left open'
  return null
}

/** Why Slack would not show `mrkdwn` as meant, or null. */
export function slackProblem(mrkdwn: string, limit = 4000): string | null {
  if (mrkdwn.length > limit) return `longer than ${limit}`
  const lines = mrkdwn.split('\n')
  for (const [n, line] of lines.entries()) {
    const body = line.startsWith('>') ? line.slice(1) : line
    if (body.includes('>') && !/<[^<>]*>/.test(body)) return `a raw > on line ${n}`
  }
  for (let i = 0; i < mrkdwn.length; i++) {
    const rest = mrkdwn.slice(i)
    if (rest[0] === '&' && !/^&(amp|lt|gt);/.test(rest)) return `a raw & at ${i}`
    if (rest[0] === '<') {
      const link = /^<((?:https?|mailto|tg):[^|<>\s]*)\|[^<>]*>/i.exec(rest)
      if (!link) return `a raw < at ${i}: ${rest.slice(0, 12)}`
      i += link[0].length - 1
      continue
    }
    if (rest[0] === '>' && i > 0 && mrkdwn[i - 1] !== '\n') return `a raw > at ${i}`
  }
  const fences = mrkdwn.split('```').length - 1
  if (fences % 2) return 'a code block left open'
  const ticks = mrkdwn.replace(/```/g, '').split('`').length - 1
  if (ticks % 2) return 'inline code left open'
  return null
}
