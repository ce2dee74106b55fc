// An agent's process as every adapter starts and stops it: in a process group of its own (the npm
// packages' launchers run the native agent as their child, and a kill must reach it too), tracked
// so that a hub exiting with sessions running leaves none behind, stopped by closing its stdin and
// killed only if it has not ended after a grace period.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'

const running = new Set<ChildProcessWithoutNullStreams>()
// Closing stdin ends each agent; this covers a hub that exits normally with sessions running.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

function killGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    child.kill(signal)
  }
}

/** Starts `bin args` in `cwd` with `env`, its stdio piped. */
export function spawnAgent(
  bin: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ChildProcessWithoutNullStreams {
  const child = spawn(bin, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
  running.add(child)
  child.on('close', () => running.delete(child))
  child.stdin.on('error', () => {}) // EPIPE when it died; its exit says so
  return child
}

/** Closes its stdin, kills its group if it has not exited after `graceMs`; resolves once `exited` has. */
export async function stopAgent(
  child: ChildProcessWithoutNullStreams,
  exited: Promise<void>,
  graceMs: number,
): Promise<void> {
  child.stdin.end()
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}
