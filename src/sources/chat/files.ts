// Names of files that came from a chat: a person chose them, so they are cleaned before they touch
// the disk or Claude's context.
import { basename } from 'node:path'

/** Strips what could break a path, a tag or a line (`<>[]\r\n;`, slashes, NULs); never empty. */
export function sanitizeFileName(name: string | null | undefined, fallback = 'file'): string {
  const cleaned = basename(String(name ?? '').replace(/\\/g, '/'))
    .replace(/[<>[\]\r\n;\0/:*?"|]/g, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120)
  return cleaned || fallback
}
