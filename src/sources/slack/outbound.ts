// What the Slack adapter sends, in Slack's shapes: Block Kit for text with buttons, reaction names for
// emoji, the three-step external file upload, and fetching a file a person sent (url_private).
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { types, webApi } from '@slack/bolt'
import { sanitizeFileName } from '../chat/files.js'
import { type Button, type InboundAttachment, type OutgoingFile, PlatformError } from '../chat/platform.js'
import { toPlatformError } from './errors.js'

/** A section block's text takes at most 3000 characters, less than a message's 4000. */
const SECTION_LIMIT = 3000
/** A button's label takes at most 75 characters. */
const LABEL_LIMIT = 75

/** Slack's own Block type is a union too strict to build row by row; the shape is checked by Slack. */
type Block = types.Block & Record<string, unknown>

/**
 * The message as blocks: its text in sections, then one `actions` block per row of buttons. Given
 * even with no buttons, because chat.update keeps a message's old blocks when none are given.
 */
export function messageBlocks(text: string, buttons: Button[][] = []): Block[] {
  const blocks: Block[] = []
  for (let at = 0; at < text.length; at += SECTION_LIMIT) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: text.slice(at, at + SECTION_LIMIT) } })
  }
  buttons.forEach((row, r) => {
    if (row.length === 0) return
    blocks.push({
      type: 'actions',
      block_id: `row_${r}`,
      elements: row.map((button, i) => ({
        type: 'button',
        text: { type: 'plain_text', text: button.text.slice(0, LABEL_LIMIT) || ' ', emoji: true },
        // Unique within the message, as Slack requires; the meaning travels in `value`.
        action_id: `button_${r}_${i}`,
        value: button.data,
      })),
    })
  })
  return blocks
}

const EMOJI_NAMES: Record<string, string> = {
  '👍': 'thumbsup',
  '👎': 'thumbsdown',
  '✅': 'white_check_mark',
  '❌': 'x',
  '👀': 'eyes',
  '❤': 'heart',
  '🎉': 'tada',
  '🔥': 'fire',
  '🙏': 'pray',
  '👌': 'ok_hand',
  '🤔': 'thinking_face',
  '😂': 'joy',
  '🚀': 'rocket',
  '⚠': 'warning',
  '⏳': 'hourglass_flowing_sand',
  '💯': '100',
  '✍': 'writing_hand',
  '🤖': 'robot_face',
  '👋': 'wave',
}

/** Slack reacts by name (`thumbsup`), never by the character; `:eyes:` and `eyes` are both taken. */
export function reactionName(emoji: string): string {
  const trimmed = emoji.trim()
  const bare = trimmed.replace(/\uFE0F/g, '')
  return EMOJI_NAMES[bare] ?? trimmed.replace(/^:|:$/g, '')
}

/** Uploads files into a chat (a thread when `threadTs` is given) after the message they go with. */
export async function uploadFiles(
  web: webApi.WebClient,
  channel: string,
  files: OutgoingFile[],
  threadTs: string | undefined,
): Promise<void> {
  const uploaded: { id: string; title: string }[] = []
  for (const { name: filename, bytes } of files) {
    const ticket = await web.files
      .getUploadURLExternal({ filename, length: bytes.length })
      .catch((error: unknown) =>
        Promise.reject(toPlatformError(error, `files.getUploadURLExternal ${filename}`)),
      )
    if (!ticket.upload_url || !ticket.file_id) {
      throw new PlatformError(`Slack files.getUploadURLExternal ${filename}: no upload_url`)
    }
    // The upload URL is signed for this one file: it needs (and must not be given) the bot token.
    const response = await fetch(ticket.upload_url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    }).catch((error: unknown) => Promise.reject(toPlatformError(error, `upload of ${filename}`)))
    await response.arrayBuffer().catch(() => undefined)
    if (!response.ok) {
      throw new PlatformError(`Slack upload of ${filename}: HTTP ${response.status}`, {
        permanent: response.status >= 400 && response.status < 500 && response.status !== 429,
      })
    }
    uploaded.push({ id: ticket.file_id, title: filename })
  }
  const [first, ...rest] = uploaded
  if (!first) return
  await web.files
    .completeUploadExternal({
      files: [first, ...rest],
      channel_id: channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    })
    .catch((error: unknown) => Promise.reject(toPlatformError(error, 'files.completeUploadExternal')))
}

/**
 * Fetches a file a person sent. url_private wants the bot token, so it is only ever sent to Slack's
 * own hosts or to the API server this bridge was pointed at, never to a URL from anywhere else.
 */
export async function downloadFile(
  attachment: InboundAttachment,
  toFolder: string,
  token: string,
  apiUrl: string,
): Promise<string> {
  let url: URL
  try {
    url = new URL(attachment.ref)
  } catch {
    throw new PlatformError(`Slack download: not a URL: ${attachment.ref}`, { permanent: true })
  }
  const slackHost =
    url.protocol === 'https:' && (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'))
  if (!slackHost && url.origin !== new URL(apiUrl).origin) {
    throw new PlatformError(`Slack download: ${url.origin} is not Slack's`, { permanent: true })
  }
  // A download that hangs must not hold the bridge's inbound queue for ever.
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(120_000),
  }).catch((error: unknown) => Promise.reject(toPlatformError(error, 'download')))
  if (!response.ok || !response.body) {
    await response.arrayBuffer().catch(() => undefined)
    const status = response.status
    throw new PlatformError(`Slack download: HTTP ${status}`, {
      permanent: status >= 400 && status < 500 && status !== 408 && status !== 429,
    })
  }
  await mkdir(toFolder, { recursive: true })
  const name = sanitizeFileName(attachment.name ?? basename(url.pathname))
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
  for (let n = 0; ; n++) {
    const path = join(toFolder, n === 0 ? name : `${n}-${name}`)
    // `wx`: a file of the same name (another message's) is never overwritten.
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 })
    const opened = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      file.once('open', () => resolve(null))
      file.once('error', (error) => resolve(error))
    })
    if (opened?.code === 'EEXIST' && n < 1000) continue
    if (opened) {
      body.destroy()
      throw new PlatformError(`Slack download: cannot write ${path}: ${opened.message}`, { permanent: true })
    }
    try {
      await pipeline(body, file)
    } catch (error) {
      await rm(path, { force: true })
      throw toPlatformError(error, `download of ${name}`)
    }
    return path
  }
}
