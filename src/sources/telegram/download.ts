// Fetches a file someone sent the bot: getFile names its path on the API server, the bytes come from
// {apiRoot}/file/bot{token}/{path}, and land under a cleaned name no earlier download can clash with.
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Api } from 'grammy'
import { sanitizeFileName } from '../chat/files.js'
import { type InboundAttachment, PlatformError } from '../chat/platform.js'
import { call } from './outbound.js'

/** A hung download must not hold the bridge forever; 20 MB (the bots' limit) takes far less. */
const DOWNLOAD_TIMEOUT_MS = 120_000

export async function download(
  api: Api,
  fileRoot: string,
  attachment: InboundAttachment,
  toFolder: string,
): Promise<string> {
  const file = await call('getFile', () => api.getFile(attachment.ref))
  if (!file.file_path) {
    throw new PlatformError('Telegram gives bots no file over 20 MB', { permanent: true })
  }
  let response: Response
  try {
    response = await fetch(`${fileRoot}/${file.file_path}`, {
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    })
  } catch (error) {
    throw new PlatformError(
      `Telegram file download: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (!response.ok) {
    await response.body?.cancel()
    const permanent = response.status >= 400 && response.status < 500 && response.status !== 429
    throw new PlatformError(`Telegram file download: HTTP ${response.status}`, { permanent })
  }
  const bytes = Buffer.from(await response.arrayBuffer())
  // Photos have no name of their own; the server's path still tells the kind (photos/file_3.jpg).
  const name = sanitizeFileName(attachment.name ?? basename(file.file_path), attachment.kind)
  await mkdir(toFolder, { recursive: true })
  const path = join(toFolder, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}-${name}`)
  await writeFile(path, bytes, { flag: 'wx', mode: 0o600 })
  return path
}
