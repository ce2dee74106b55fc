// `npm run soak` stopped by a signal (a person's Ctrl-C, a CI's timeout) stops every process it started:
// the hub and the channel sessions would otherwise outlive it, holding their ports and homes.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { alive, waitFor } from './helpers/home.js'

const ROOT = join(import.meta.dirname, '..')

/** Each process's parent, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      map.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone between the listing and the read
    }
  }
  return map
}

function descendants(root: number): number[] {
  const all = parents()
  const found: number[] = []
  const walk = (pid: number) => {
    for (const [child, parent] of all)
      if (parent === pid) {
        found.push(child)
        walk(child)
      }
  }
  walk(root)
  return found
}

it('a soak stopped by SIGTERM stops its hub and channel sessions and says so', async () => {
  const soak = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/soak/index.ts',
      '--minutes',
      '1',
      '--channels',
      '3',
      '--operators',
      '2',
      '--rate',
      '2',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  soak.stdout.on('data', (chunk) => (out += String(chunk)))
  soak.stderr.on('data', (chunk) => (out += String(chunk)))
  const exited = new Promise<number | null>((resolve) => soak.on('exit', (code) => resolve(code)))
  await waitFor(() => out.includes('traffic for'), 120_000, `the soak's traffic to start\n${out}`)

  const started = descendants(soak.pid as number)
  // The hub and three channel sessions at least.
  expect(started.length, out).toBeGreaterThanOrEqual(4)
  soak.kill('SIGTERM')
  expect(await exited, out).toBe(130)
  expect(out).toContain('soak: SIGTERM; stopping its hubs and channels')

  // A zombie counts as gone (alive): it has ended, only unreaped.
  await waitFor(
    () => !started.some(alive),
    10_000,
    `the processes the soak started (${started.join(', ')}) to end`,
  )
}, 180_000)
