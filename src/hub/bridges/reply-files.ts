// Files a reply attaches leave the machine: Claude names them, and a prompt-injected session would name
// a secret. Each is opened once, never through a link, and checked from that handle: a regular file
// with one name, inside a folder files may leave from, not too big. The bytes sent are read from the
// same handle, so a file swapped after the check is not the one that goes.
import { constants } from 'node:fs'
import { type FileHandle, open, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, isAbsolute, join, sep } from 'node:path'
import { paths, replyFileRoots } from '../../core/config.js'
import { chatFileLimits, megabytes } from '../../sources/chat/inbox.js'
import type { OutgoingFile } from '../../sources/chat/platform.js'

/**
 * What the user's home holds that no reply may carry, even from a session run in the home itself:
 * keys and the credentials of other tools.
 */
const SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.config/gcloud',
  '.config/gh',
  '.claude.json',
  '.claude/.credentials.json',
]

export interface FileOrigin {
  /** Switchboard's home: its secrets are never sent, its inbox may be. */
  home: string
  /** The working folder of the session that replies, as its channel said; unknown for older channels. */
  folder?: string
}

/** A file that may not be sent, and why, in words for Claude and the log. */
export class FileRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileRefused'
  }
}

const within = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep)

async function real(path: string): Promise<string | null> {
  return realpath(path).catch(() => null)
}

/** Opens, checks and reads a reply's files; throws FileRefused naming the first that may not go. */
export async function readReplyFiles(files: string[], origin: FileOrigin): Promise<OutgoingFile[]> {
  const read: OutgoingFile[] = []
  const { maxBytes } = chatFileLimits(origin.home)
  let total = 0
  for (const file of files) {
    const one = await withCheckedFile(file, origin, maxBytes, async (handle, size) => {
      total += size
      if (total > maxBytes)
        throw new FileRefused(`${file}: a reply's files are over ${megabytes(maxBytes)} together`)
      return { name: basename(file), bytes: await readAll(handle, size) }
    })
    read.push(one)
  }
  return read
}

/** The same checks without reading: what the reply tool answers at once. */
export async function checkReplyFiles(files: string[], origin: FileOrigin): Promise<void> {
  const { maxBytes } = chatFileLimits(origin.home)
  let total = 0
  for (const file of files)
    await withCheckedFile(file, origin, maxBytes, async (_handle, size) => {
      total += size
      if (total > maxBytes)
        throw new FileRefused(`${file}: a reply's files are over ${megabytes(maxBytes)} together`)
    })
}

async function withCheckedFile<T>(
  file: string,
  origin: FileOrigin,
  maxBytes: number,
  use: (handle: FileHandle, size: number) => Promise<T>,
): Promise<T> {
  if (!isAbsolute(file)) throw new FileRefused(`files must be absolute paths: ${file}`)
  let handle: FileHandle
  try {
    // Not through a link at the end of the path; O_NONBLOCK: a FIFO opens at once (and is refused below).
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      throw new FileRefused(`${file} is a symbolic link: a file is sent as itself, never through a link`)
    throw new FileRefused(`cannot read ${file}`)
  }
  try {
    const opened = await handle.stat()
    if (!opened.isFile()) throw new FileRefused(`not a file: ${file}`)
    // Where the open file is: the name it was opened by, found again and proven to be this very file.
    const where = await real(file)
    const now = where ? await stat(where).catch(() => null) : null
    if (!where || now?.dev !== opened.dev || now?.ino !== opened.ino)
      throw new FileRefused(`${file} changed while it was checked; it was not sent`)
    await refuseByPlace(file, where, origin)
    // Its place says nothing of a second name, which could be anywhere: the admin token's, say.
    if (opened.nlink > 1)
      throw new FileRefused(
        `${file} is a hard link (one file under ${opened.nlink} names): only a file with one name is sent; send a copy`,
      )
    if (opened.size > maxBytes)
      throw new FileRefused(`${file} is over ${megabytes(maxBytes)} (chatFileLimitMb)`)
    return await use(handle, opened.size)
  } finally {
    await handle.close()
  }
}

async function refuseByPlace(file: string, where: string, origin: FileOrigin): Promise<void> {
  const home = (await real(origin.home)) ?? origin.home
  const inbox = await real(paths.inbox(origin.home))
  const inInbox = inbox !== null && within(where, inbox)
  if (within(where, home) && !inInbox)
    throw new FileRefused(`${file} is in Switchboard's home, which holds secrets; it is never sent`)
  const roots = [origin.folder, ...replyFileRoots(origin.home)].filter((r): r is string => !!r)
  const realRoots = (await Promise.all(roots.map(real))).filter((r): r is string => r !== null)
  if (!inInbox && !realRoots.some((root) => within(where, root)))
    throw new FileRefused(
      `${file} is outside the folders files are sent from (${origin.folder ? `the session's folder ${origin.folder}, ` : ''}Switchboard's inbox, replyFileRoots in config.json)`,
    )
  const user = (await real(homedir())) ?? homedir()
  const secret = SECRETS.find((s) => within(where, join(user, s)))
  if (secret) throw new FileRefused(`${file} is in ~/${secret}, which holds secrets; it is never sent`)
}

/** The file's bytes from the open handle, as many as it held when checked. */
async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.alloc(size)
  let at = 0
  while (at < size) {
    const { bytesRead } = await handle.read(bytes, at, size - at, at)
    if (bytesRead === 0) break
    at += bytesRead
  }
  return bytes.subarray(0, at)
}
