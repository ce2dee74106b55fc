// A file only its owner may read, replaced whole: written aside and renamed over the old one, so a
// reader (another process, or this one after a crash) finds the old file or the new, never half of one.
import { chmodSync, renameSync, writeFileSync } from 'node:fs'

export function replacePrivateFile(file: string, text: string): void {
  const draft = `${file}.${process.pid}.tmp`
  writeFileSync(draft, text, { mode: 0o600 })
  // The mode above is narrowed by the umask only; a draft left by a crashed process keeps its own.
  chmodSync(draft, 0o600)
  renameSync(draft, file)
}
