// The one store and the one limit for files a person and a session exchange: what a person sends (from
// a chat, or the dashboard) lands in the session's folder of the inbox (`<home>/inbox/<session>/`), and
// what a reply attaches may come from there (hub/bridges/reply-files.ts); both are held to
// chatFileLimitMb, read again at each file so an edit of config.json needs no restart. A file in must
// also be of a type chatFileTypes names. Here, below the bridges and the HTTP app, so both use it.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { rm, stat, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { paths } from '../../core/config.js'
import { invalid } from '../../core/errors.js'
import { liveSettings } from '../../core/settings/resolve.js'
import { sanitizeFileName } from './files.js'
import type { InboundAttachment, PlatformAdapter } from './platform.js'

export interface ChatFileLimits {
  maxBytes: number
  /** MIME types or families (`image/*`), `*\/*` for any. */
  types: string[]
}

export function chatFileLimits(home: string): ChatFileLimits {
  const { values, problems } = liveSettings(home)
  if (problems[0] !== undefined) throw invalid(problems[0])
  return { maxBytes: Math.floor(values.chatFileLimitMb * 1024 * 1024), types: values.chatFileTypes }
}

/** "50 MB", as the limit is stated in config and to the sender. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

/** The inbox folder of a session (or of a platform, for messages kept for whichever session comes). */
export function inboxFolder(home: string, owner: string): string {
  const folder = join(paths.inbox(home), sanitizeFileName(owner, 'chat'))
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  return folder
}

/** Platforms name no type for some kinds (a Telegram photo is a JPEG, a voice note Ogg Opus). */
const BY_KIND: Partial<Record<InboundAttachment['kind'], string>> = {
  photo: 'image/jpeg',
  voice: 'audio/ogg',
  sticker: 'image/webp',
}
const BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.log': 'text/plain',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
}

/** The file's type: what the platform said, else what its kind or its name's extension tells. */
export function typeOf(attachment: InboundAttachment): string {
  const said = attachment.mime?.split(';')[0]?.trim().toLowerCase()
  if (said) return said
  const byName = attachment.name ? BY_EXTENSION[extname(attachment.name).toLowerCase()] : undefined
  return byName ?? BY_KIND[attachment.kind] ?? 'application/octet-stream'
}

function typeAllowed(type: string, allowed: string[]): boolean {
  const [family] = type.split('/')
  return allowed.some((a) => a === '*/*' || a === type || a === `${family}/*`)
}

/** Why a file is not taken, and what became of it (`not passed on` for a chat, `not sent` for the page). */
export interface Refusal {
  reason: 'size' | 'type'
  message: string
}

/**
 * What the sender is told when a file is not taken (before it is fetched); null when it may come.
 * `outcome` ends the sentence: what happened to the file, in the words of where it came from.
 */
export function refusalOf(
  attachment: InboundAttachment,
  limits: ChatFileLimits,
  outcome = 'it was not passed on',
): string | null {
  return refusalWhy(attachment, limits, outcome)?.message ?? null
}

/** refusalOf, with whether the size or the type was refused (an HTTP caller answers 413 or 400). */
export function refusalWhy(
  attachment: InboundAttachment,
  limits: ChatFileLimits,
  outcome = 'it was not passed on',
): Refusal | null {
  const name = shownName(attachment)
  if (attachment.size !== null && attachment.size > limits.maxBytes)
    return { reason: 'size', message: oversizeText(name, attachment.size, limits.maxBytes, outcome) }
  const type = typeOf(attachment)
  if (!typeAllowed(type, limits.types))
    return {
      reason: 'type',
      message: `${name} is ${type}, which is not taken (chatFileTypes: ${limits.types.join(', ')}): ${outcome}.`,
    }
  return null
}

/** What a sender is told of a file over chatFileLimitMb (`what`: how it is named to them). */
export function oversizeText(what: string, size: number, maxBytes: number, outcome: string): string {
  return `${what} is ${megabytes(size)}, over the ${megabytes(maxBytes)} limit for files (chatFileLimitMb): ${outcome}.`
}

/** How a file is named to its sender. */
export function shownName(attachment: InboundAttachment): string {
  return attachment.name ? `“${sanitizeFileName(attachment.name)}”` : `The ${attachment.kind}`
}

/** A file a person sent, in a session's inbox now. */
export interface ChatFile {
  path: string
  type: string
  size: number
}

/** How a file is named to a session: `<path> (<type>, <size> bytes)`, `; ` between several. */
export function describeFiles(files: ChatFile[]): string {
  return files.map((f) => `${f.path} (${f.type}, ${f.size} bytes)`).join('; ')
}

/**
 * A person's words with files, as a session reads them in a message of its own (the dashboard's): the
 * words, then the files named as a chat's event names them in meta.
 */
export function messageWithFiles(text: string | undefined, files: ChatFile[]): string {
  const named = `files="${describeFiles(files)}"`
  return text?.trim() ? `${text}\n\n${named}` : named
}

/**
 * Writes a file's bytes into an inbox folder under its cleaned name, prefixed so that no earlier file
 * can clash with it (as the platforms' downloads name theirs); never over an existing file.
 */
export async function storeInboxFile(folder: string, name: string, bytes: Uint8Array): Promise<string> {
  const path = join(
    folder,
    `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}-${sanitizeFileName(name)}`,
  )
  await writeFile(path, bytes, { flag: 'wx', mode: 0o600 })
  return path
}

/**
 * Fetches a file through the platform's API into `folder`, unless it is refused: throws an Error whose
 * message is what its sender is told. A file whose size the platform did not say is measured once it
 * is here, and deleted when it is over the limit.
 */
export async function fetchChatFile(
  adapter: PlatformAdapter,
  attachment: InboundAttachment,
  folder: string,
  limits: ChatFileLimits,
): Promise<ChatFile> {
  const refused = refusalOf(attachment, limits)
  if (refused) throw new Error(refused)
  let path: string
  try {
    path = await adapter.download(attachment, folder)
  } catch (err) {
    throw new Error(
      `${shownName(attachment)} could not be fetched from ${adapter.platform} (${(err as Error).message}): it was not passed on; send it again.`,
    )
  }
  const { size } = await stat(path)
  if (size > limits.maxBytes) {
    await rm(path, { force: true })
    throw new Error(refusalOf({ ...attachment, size }, limits) ?? `${shownName(attachment)} is too big`)
  }
  return { path, type: typeOf(attachment), size }
}
