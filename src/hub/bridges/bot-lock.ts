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

/** Takes the bot, or says who has it. The returned release gives it back. */
export function takeBot(
  platform: string,
  token: string,
  home: string,
): { ok: true; release(): void } | { ok: false; message: string } {
  const file = botLockPath(platform, token)
  const other = readHolder(file)
  if (other && processAlive(other.pid) && (other.pid !== process.pid || heldHere.has(other.holder)))
    return {
      ok: false,
      message: `this ${platform} bot is served by another hub already (pid ${other.pid}, home ${other.home}); remove the bridge there or use another bot`,
    }
  const holder = randomUUID()
  writeFileSync(file, JSON.stringify({ pid: process.pid, home, holder }), { mode: 0o600 })
  heldHere.add(holder)
  return {
    ok: true,
    release() {
      heldHere.delete(holder)
      if (readHolder(file)?.holder === holder) rmSync(file, { force: true })
    },
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
