// One receiver per bot on this machine. Two programs polling one Telegram bot make the platform
// answer 409 to both, for ever; two gateways on one Discord bot both answer every DM. The first hub
// to take a bot holds a lock named by the token's hash, in the machine's temp folder so hubs with
// different homes see it too; a second hub is refused with a clear error instead.
import { createHash, randomUUID } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processAlive } from '../../core/process-alive.js'

interface Holder {
  pid: number
  home: string
  holder: string
}

/** Locks this process holds now: a second hub inside one process (tests) is told apart by these. */
const heldHere = new Set<string>()

export function botLockPath(platform: string, token: string): string {
  const hash = createHash('sha256').update(`${platform}\0${token}`).digest('hex').slice(0, 24)
  return join(tmpdir(), `switchboard-bot-${hash}.lock`)
}

export type BotLock = { ok: true; release(): void } | { ok: false; message: string }

/** Takes the bot, or says who has it. The returned release gives it back. Never throws. */
export function takeBot(platform: string, token: string, home: string): BotLock {
  const file = botLockPath(platform, token)
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
