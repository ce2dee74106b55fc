// The admin token lets local processes (channels, the CLI) speak the hub protocol. Mode 0600.
import { ensureHome, type HubConfig, paths } from './config.js'
import { newSecret } from './ids.js'
import { readOrMakeSecretFile } from './secret-file.js'

/**
 * The adminToken setting when set (hubs on one database, each with its own home, share it), else the
 * home's token, created on first use.
 */
export function readAdminToken({ home, adminToken }: Pick<HubConfig, 'home' | 'adminToken'>): string {
  if (adminToken !== null) return adminToken
  ensureHome(home)
  return readOrMakeSecretFile(paths.adminToken(home), () => `${newSecret('sba')}\n`).trim()
}
