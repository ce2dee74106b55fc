// The admin token lets local processes (channels, the CLI) speak the hub protocol. Mode 0600.
import { chmodSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { ensureHome, paths } from './config.js'
import { newSecret } from './ids.js'

/** Creates the token on first use. Written aside, then linked: a racing process sees all or nothing. */
export function readAdminToken(home: string): string {
  ensureHome(home)
  const file = paths.adminToken(home)
  const draft = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(draft, `${newSecret('sba')}\n`, { mode: 0o600 })
    linkSync(draft, file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(draft, { force: true })
  }
  chmodSync(file, 0o600)
  return readFileSync(file, 'utf8').trim()
}
