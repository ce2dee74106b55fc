// The admin token lets local processes (channels, the CLI) speak the hub protocol. Mode 0600.
import { chmodSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { ensureHome, paths } from './config.js'
import { UserError } from './errors.js'
import { newSecret } from './ids.js'

/** Anyone holding it may drive sessions: a shared token is not one a person types. */
const MIN_SHARED_TOKEN = 24

/**
 * SWITCHBOARD_ADMIN_TOKEN when set (hubs on one database, each with its own home, share it), else the
 * home's token, created on first use: written aside, then linked, so a racing process sees all or nothing.
 */
export function readAdminToken(home: string): string {
  const shared = process.env.SWITCHBOARD_ADMIN_TOKEN?.trim()
  if (shared) {
    if (shared.length < MIN_SHARED_TOKEN)
      throw new UserError(
        `SWITCHBOARD_ADMIN_TOKEN must be at least ${MIN_SHARED_TOKEN} characters (openssl rand -hex 24 makes one)`,
      )
    return shared
  }
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
