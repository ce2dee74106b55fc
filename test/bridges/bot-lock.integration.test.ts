// Another local user cannot keep a bridge from its bot: one who squats every file a hub left in the
// machine's shared folders (the temp folders anyone may write to) does not stop the next hub. Run as
// root, to play that other user (nobody, through setpriv).
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { FakePlatform } from '../fakes/chat-platform.js'
import { bridgeAddArgs, FAKES, spawnHub } from '../helpers/bridge-world.js'
import { TestHome, waitFor } from '../helpers/home.js'

const SHARED = [...new Set([tmpdir(), '/tmp', '/var/tmp', '/dev/shm'])].filter((d) => existsSync(d))
const NOBODY = 65534
const asRoot = process.getuid?.() === 0

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Files in the shared folders that name this home: what the hub left where anyone may write. */
function leftInShared(home: TestHome): string[] {
  return SHARED.flatMap((dir) =>
    readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((path) => {
        try {
          return lstatSync(path).isFile() && readFileSync(path, 'utf8').includes(home.dir)
        } catch {
          return false
        }
      }),
  )
}

async function bridgeState(home: TestHome): Promise<{ state: string; lastError: string | null }> {
  const [row] = JSON.parse(await home.cli('bridge', 'list', '--json'))
  return row
}

;(asRoot ? it : it.skip)(
  'connects although another user squatted what a hub left in the shared folders (needs root to play that user)',
  async () => {
    const fake: FakePlatform = await FAKES.telegram()
    cleanups.push(() => fake.close())
    const home = await TestHome.create()
    cleanups.push(() => home.cleanup())
    await home.cli(...bridgeAddArgs(fake))

    const first = spawnHub(home)
    cleanups.push(() => void first.kill('SIGKILL'))
    await waitFor(
      async () => (await bridgeState(home).catch(() => null))?.state === 'connected',
      20_000,
      'the bridge',
    )
    const seen = leftInShared(home)
    await home.stopHub()

    // The other user claims every name they saw, with a live process (init) as the holder.
    const squatted = JSON.stringify({ pid: 1, home: '/home/mallory', holder: 'mallory' })
    for (const path of seen) {
      execFileSync('setpriv', [
        `--reuid=${NOBODY}`,
        `--regid=${NOBODY}`,
        '--clear-groups',
        'sh',
        '-c',
        'umask 077 && printf %s "$1" > "$2"',
        'sh',
        squatted,
        path,
      ])
      cleanups.push(() => rmSync(path, { force: true }))
      expect(lstatSync(path).uid).toBe(NOBODY)
    }

    const second = spawnHub(home)
    cleanups.push(() => void second.kill('SIGKILL'))
    let state: { state: string; lastError: string | null } | null = null
    await waitFor(
      async () => {
        state = await bridgeState(home).catch(() => null)
        return state?.state === 'connected' || state?.lastError?.includes('another hub') === true
      },
      20_000,
      'the bridge to connect or be refused',
    )
    expect(state).toMatchObject({ state: 'connected' })
  },
)
