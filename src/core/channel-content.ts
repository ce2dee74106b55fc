// What a channel may hand Claude Code as a notification's content.

/**
 * A channel notification's content as the channel sends it. Claude Code writes it into its tag as it
 * is: a `<channel …>` or `</channel>` inside would read as a tag of its own, naming another event (a
 * receipt it never earned) or another sender. Only the angle bracket of such a tag is escaped; the
 * rest of the content stays as it was sent.
 */
export function defusedContent(content: string): string {
  return content.replace(/<(\/?channel)(?=[\s>/]|$)/gi, '&lt;$1')
}
