// Another local user, with no credential, cannot freeze the hub or name a session's repository by
// what they leave in a folder anyone may write to, above the folder the session runs in: a named pipe
// called `.git` (which a read waits on for good), or a `.git` of their own. The hub reads a session's
// branch at SessionStart from its folder's repository. Run as root, to play that other user (nobody,
// through setpriv).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { hookInput, postHook } from './helpers/claude-hook.js'
import { CLI, TestHome } from './helpers/home.js'

const NOBODY = 65534
const asRoot = process.getuid?.() === 0

let home: TestHome
let hub: ChildProcess | undefined
let shared: string

beforeEach(async () => {
  home = await TestHome.create()
  // A folder anyone may write to, as /tmp is, with the victim's project in it.
  shared = realpathSync(mkdtempSync(join(tmpdir(), 'shared-')))
  chmodSync(shared, 0o1777)
})

afterEach(async () => {
  // A hub that froze handles no SIGTERM.
  hub?.kill('SIGKILL')
  await home.cleanup()
  rmSync(shared, { recursive: true, force: true })
})

/** Runs a shell command as the other user. */
function asNobody(script: string, ...args: string[]): void {
  execFileSync('setpriv', [
    `--reuid=${NOBODY}`,
    `--regid=${NOBODY}`,
    '--clear-groups',
    'sh',
    '-c',
    script,
    'sh',
    ...args,
  ])
}

/** The victim's Claude Code starting a session in `cwd`: its SessionStart hook, as the hub takes it. */
async function sessionStart(session: string, cwd: string): Promise<number> {
  const { status } = await postHook(
    home,
    'SessionStart',
    hookInput('SessionStart', session, cwd, { source: 'startup' }),
    {
      // Only so that a frozen hub fails the test rather than hanging it.
      signal: AbortSignal.timeout(15_000),
    },
  )
  return status
}

async function branchOf(session: string): Promise<unknown> {
  const { sessions } = await home.api('terminalSessions', {})
  return sessions.find((s) => s.sessionId === session)?.branch
}

;(asRoot ? it : it.skip)(
  'keeps answering, and names no branch, when another user put a named pipe or a repository of their own called .git above the session’s folder (needs root to play that user)',
  async () => {
    const piped = join(shared, 'piped')
    asNobody('mkdir -m 1777 "$1" && mkfifo "$1/.git"', piped)
    const planted = join(shared, 'planted')
    asNobody(
      'mkdir -m 1777 "$1" && mkdir "$1/.git" && echo "ref: refs/heads/theirs" > "$1/.git/HEAD"',
      planted,
    )
    for (const parent of [piped, planted]) mkdirSync(join(parent, 'project'))

    hub = spawn(process.execPath, [CLI, 'serve'], { env: home.env, stdio: 'ignore' })
    await home.waitForHub()
    const piping = '5f0c1a2e-0000-4000-8000-0000000000f1'
    const planting = '5f0c1a2e-0000-4000-8000-0000000000f2'
    expect(await sessionStart(piping, join(piped, 'project'))).toBe(200)
    expect(await sessionStart(planting, join(planted, 'project'))).toBe(200)
    expect((await fetch(`${home.url}/health`, { signal: AbortSignal.timeout(15_000) })).ok).toBe(true)
    expect(await branchOf(piping)).toBeNull()
    expect(await branchOf(planting)).toBeNull()
  },
)
