// A hub's name among the hubs on one database: kept in its home, so a hub restarted on the same home
// takes back its own leases at once instead of waiting for them to lapse.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { paths } from '../../core/config.js'
import { newId } from '../../core/ids.js'

export function readHubId(home: string): string {
  const file = paths.hubId(home)
  try {
    const id = readFileSync(file, 'utf8').trim()
    if (/^hub_[A-Za-z0-9_-]+$/.test(id)) return id
  } catch {
    // none yet
  }
  const id = newId('hub')
  writeFileSync(file, `${id}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return id
}
