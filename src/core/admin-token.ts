// The admin token lets local processes (channels, the CLI) speak the hub protocol. Mode 0600.
import { chmodSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { ensureHome, type HubConfig, paths } from './config.js'
import { newSecret } from './ids.js'

/**
 * The adminToken setting when set (hubs on one database, each with its own home, share it), else the
 * home's token, created on first use: written aside, then linked, so a racing process sees all or nothing.
 */
export function readAdminToken({ home, adminToken }: Pick<HubConfig, 'home' | 'adminToken'>): string {
  if (adminToken !== null) return adminToken
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
