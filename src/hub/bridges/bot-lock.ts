// One receiver per bot on this machine. Two programs polling one Telegram bot make the platform
// answer 409 to both, for ever; two gateways on one Discord bot both answer every DM. The first hub
// to take a bot holds a lock named by the token's hash, in a folder of the user's home directory
// (~/.switchboard/bot-locks) so hubs with other Switchboard homes see it too, and a second hub is
// refused with a clear error instead. Not in a shared temp folder: another local user could create
// the lock there first, or keep one they cannot be made to give up, and stop the bridge for good.
import { createHash, randomUUID } from 'node:crypto'
import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { processAlive } from '../../core/process-alive.js'

interface Holder {
  pid: number
  home: string
  holder: string
}

/** Locks this process holds now: a second hub inside one process (tests) is told apart by these. */
const heldHere = new Set<string>()

/** Where this user's hubs keep their bots' locks, whatever Switchboard home each runs on. */
export function botLockFolder(userHome = homedir()): string {
  return join(userHome, '.switchboard', 'bot-locks')
}

export function botLockPath(platform: string, token: string, folder = botLockFolder()): string {
  const hash = createHash('sha256').update(`${platform}\0${token}`).digest('hex').slice(0, 24)
  return join(folder, `${hash}.lock`)
}

export type BotLock = { ok: true; release(): void } | { ok: false; message: string }

/** Takes the bot, or says who has it. The returned release gives it back. Never throws. */
export function takeBot(platform: string, token: string, home: string, folder = botLockFolder()): BotLock {
  const unsafe = ownFolder(folder)
  if (unsafe) return { ok: false, message: `cannot take the ${platform} bot's lock: ${unsafe}` }
  const file = botLockPath(platform, token, folder)
  const holder = randomUUID()
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // `wx`: created only if absent, so two hubs starting at once cannot both take it.
      writeFileSync(file, JSON.stringify({ pid: process.pid, home, holder }), { mode: 0o600, flag: 'wx' })
      heldHere.add(holder)
      return { ok: true, release: () => release(file, holder) }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        return {
          ok: false,
          message: `cannot take the ${platform} bot's lock ${file}: ${(err as Error).message}`,
        }
    }
    const other = readHolder(file)
    const live = other && processAlive(other.pid) && (other.pid !== process.pid || heldHere.has(other.holder))
    if (live)
      return {
        ok: false,
        message: `this ${platform} bot is served by another hub already (pid ${other.pid}, home ${other.home}); remove the bridge there or use another bot`,
      }
    // Left by a hub that died: break it, once.
    try {
      rmSync(file, { force: true })
    } catch (err) {
      return { ok: false, message: `cannot remove the stale lock ${file}: ${(err as Error).message}` }
    }
  }
  return { ok: false, message: `another hub took the ${platform} bot at the same moment; retrying` }
}

/**
 * Makes the lock folder (0700) and checks that it, and the folder it is in, are this user's alone:
 * a folder others may write to would let them take or squat a lock. The problem, or null.
 */
function ownFolder(folder: string): string | null {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    for (const dir of [folder, dirname(folder)]) {
      const stat = lstatSync(dir)
      const uid = process.getuid?.()
      if (!stat.isDirectory()) return `${dir} is not a folder`
      if (uid !== undefined && stat.uid !== uid) return `${dir} belongs to another user (uid ${stat.uid})`
      if (stat.mode & 0o022) return `others may write to ${dir}; run: chmod go-w ${dir}`
    }
    return null
  } catch (err) {
    return `cannot make the lock folder ${folder}: ${(err as Error).message}`
  }
}

function release(file: string, holder: string): void {
  heldHere.delete(holder)
  try {
    if (readHolder(file)?.holder === holder) rmSync(file, { force: true })
  } catch {
    // A lock that cannot be removed is stale once this process is gone: the next hub breaks it.
  }
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>
    return typeof parsed.pid === 'number' && typeof parsed.holder === 'string'
      ? { pid: parsed.pid, home: String(parsed.home ?? '?'), holder: parsed.holder }
      : null
  } catch {
    return null
  }
}
