// Whether Claude Code can write its transcript at all (issue 37): on a full disk, or with a file it may
// not write, Claude Code goes on answering and its transcript stops growing, silently (seen with
// 2.1.330: no line on stdout or stderr while it runs). Then nothing the transcript lacks was dropped,
// and writing an event again only shows it twice: the reason says so instead.
import { accessSync, constants, type StatsFs, statfsSync } from 'node:fs'
import { access, statfs } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Less room than this on its disk and Claude Code's next transcript line does not fit (a turn writes KBs). */
export const ROOM_BYTES = 64 * 1024

function said(file: string, denied: string | null, disk: StatsFs | null): string | null {
  if (denied)
    return `the session's transcript ${file} cannot be written (${denied}): Claude Code answers, but writes down nothing it was shown`
  if (disk && disk.bavail * disk.bsize < ROOM_BYTES)
    return `the disk holding the session's transcript is full (${disk.bavail * disk.bsize} bytes free in ${dirname(file)}): Claude Code answers, but writes down nothing it was shown`
  return null
}

function deniedCode(err: unknown): string | null {
  const code = (err as NodeJS.ErrnoException).code ?? String(err)
  return code === 'ENOENT' ? null : code
}

/** Why Claude Code cannot write `file` now, or null when it can (or the file is not there yet). */
export function transcriptUnwritable(file: string): string | null {
  let denied: string | null = null
  let disk: StatsFs | null = null
  try {
    accessSync(file, constants.W_OK)
  } catch (err) {
    denied = deniedCode(err)
  }
  try {
    disk = statfsSync(dirname(file))
  } catch {
    // no folder: nothing to say of its disk
  }
  return said(file, denied, disk)
}

/** The same, without blocking: for the hub, which serves every session. */
export async function transcriptUnwritableAsync(file: string): Promise<string | null> {
  const [denied, disk] = await Promise.all([
    access(file, constants.W_OK).then(
      () => null,
      (err) => deniedCode(err),
    ),
    statfs(dirname(file)).catch(() => null),
  ])
  return said(file, denied, disk)
}
