// What the hub sends through Discord's REST API: messages with button rows and files, edits, reactions,
// typing, history and attachment downloads. Raw routes through the client's REST, never a channel object,
// so a DM the gateway only ever showed as a partial channel needs no fetch first.
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import {
  ActionRowBuilder,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIMessage,
  ButtonBuilder,
  ButtonStyle,
  type RawFile,
  type REST,
  Routes,
} from 'discord.js'
import { sanitizeFileName } from '../chat/files.js'
import {
  type Button,
  type InboundAttachment,
  type OutgoingFile,
  type OutgoingMessage,
  PlatformError,
} from '../chat/platform.js'
import { call } from './errors.js'

/** Discord's limits on a message's buttons and files. */
const BUTTONS_PER_ROW = 5
const ROWS = 5
const LABEL_MAX = 80
const FILES_MAX = 10

type Row = APIActionRowComponent<APIComponentInMessageActionRow>

/** Each given row, cut into rows Discord takes; more than five rows is refused rather than cut. */
export function componentRows(buttons: Button[][]): Row[] {
  const rows: Button[][] = []
  for (const row of buttons) {
    for (let i = 0; i < row.length; i += BUTTONS_PER_ROW) rows.push(row.slice(i, i + BUTTONS_PER_ROW))
  }
  if (rows.length > ROWS)
    throw new PlatformError(`Discord takes at most ${ROWS * BUTTONS_PER_ROW} buttons`, { permanent: true })
  try {
    return rows.map((row) =>
      new ActionRowBuilder<ButtonBuilder>()
        .addComponents(
          row.map((b) =>
            new ButtonBuilder()
              .setStyle(ButtonStyle.Secondary)
              .setLabel(b.text.slice(0, LABEL_MAX))
              .setCustomId(b.data),
          ),
        )
        .toJSON(),
    )
  } catch (error) {
    // The builders refuse an empty label or a custom id over 100 characters: sending again cannot help.
    const reason = error instanceof Error ? error.message : String(error)
    throw new PlatformError(`Discord buttons: ${reason}`, { permanent: true })
  }
}

function rawFiles(files: OutgoingFile[]): RawFile[] {
  if (files.length > FILES_MAX)
    throw new PlatformError(`Discord takes at most ${FILES_MAX} files per message`, { permanent: true })
  return files.map(({ name, bytes }) => ({ name, data: bytes }))
}

/** One message: text, buttons and files together; resolves with its id. */
export async function sendMessage(rest: REST, chatId: string, message: OutgoingMessage): Promise<string> {
  const files = rawFiles(message.files ?? [])
  const body = {
    // Discord reads markdown itself and refuses none: the markup, when there is one, is what goes.
    content: message.markup ?? message.text,
    // Text Claude wrote must not ping a whole server or a role; people named by id still are.
    allowed_mentions: { parse: ['users'] },
    components: message.buttons?.length ? componentRows(message.buttons) : undefined,
    // A reply to a message deleted meanwhile still goes out, as a plain message.
    message_reference: message.replyTo
      ? { message_id: message.replyTo, fail_if_not_exists: false }
      : undefined,
    attachments: files.length ? files.map((file, id) => ({ id, filename: file.name })) : undefined,
  }
  // A thread is a channel of its own (hub/bridges/threads.ts).
  const channel = message.thread ?? chatId
  const sent = (await call('send', () =>
    rest.post(Routes.channelMessages(channel), { body, files: files.length ? files : undefined }),
  )) as APIMessage
  return sent.id
}

/** Without components Discord would keep the old buttons: always say which ones stay. */
export async function editMessage(
  rest: REST,
  chatId: string,
  messageId: string,
  text: string,
  buttons?: Button[][],
): Promise<void> {
  const body = { content: text, components: componentRows(buttons ?? []) }
  await call('edit', () => rest.patch(Routes.channelMessage(chatId, messageId), { body }))
}

export async function react(rest: REST, chatId: string, messageId: string, emoji: string): Promise<void> {
  // A custom emoji goes by name:id; a unicode one as itself, URL-encoded.
  const custom = /^<a?:(\w+):(\d+)>$/.exec(emoji.trim())
  const ref = custom ? `${custom[1]}:${custom[2]}` : encodeURIComponent(emoji.trim())
  await call('react', () => rest.put(Routes.channelMessageOwnReaction(chatId, messageId, ref)))
}

export async function typing(rest: REST, chatId: string): Promise<void> {
  await call('typing', () => rest.post(Routes.channelTyping(chatId)))
}

export async function history(rest: REST, chatId: string, limit: number) {
  const query = new URLSearchParams({ limit: String(Math.min(Math.max(Math.floor(limit), 1), 100)) })
  const page = (await call('history', () =>
    rest.get(Routes.channelMessages(chatId), { query }),
  )) as APIMessage[]
  // Discord lists the newest first.
  return [...page].reverse().map((m) => ({
    messageId: m.id,
    user: m.author.username,
    text: m.content,
    ts: new Date(m.timestamp).toISOString(),
  }))
}

/** The attachment's URL (Discord's CDN, signed) is the ref; the bytes land under a name nothing clashes with. */
export async function download(attachment: InboundAttachment, toFolder: string): Promise<string> {
  let url: URL
  try {
    url = new URL(attachment.ref)
  } catch {
    throw new PlatformError('not a Discord attachment URL', { permanent: true })
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PlatformError('not a Discord attachment URL', { permanent: true })
  let response: Response
  try {
    // A download that hangs must not hold the bridge's inbound queue for ever.
    response = await fetch(url, { signal: AbortSignal.timeout(120_000) })
  } catch (error) {
    throw new PlatformError(`Discord download: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!response.ok) {
    await response.body?.cancel()
    const permanent = response.status >= 400 && response.status < 500 && response.status !== 429
    throw new PlatformError(`Discord download: HTTP ${response.status}`, { permanent })
  }
  const bytes = Buffer.from(await response.arrayBuffer())
  const name = sanitizeFileName(attachment.name ?? basename(url.pathname), attachment.kind)
  await mkdir(toFolder, { recursive: true })
  const path = join(toFolder, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}-${name}`)
  await writeFile(path, bytes, { flag: 'wx', mode: 0o600 })
  return path
}
