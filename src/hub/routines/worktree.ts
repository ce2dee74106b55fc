// A run's own git worktree (a routine whose action names `worktree`): added from the repository's
// HEAD on a new branch before the session starts, in a folder named by the run, and removed when the
// run ends as its cleanup policy says. The branch stays: what the session committed is kept.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const git = promisify(execFile)
const TIMEOUT_MS = 60_000

/** Where a run's worktree is: known before it is made, so a restart finds the one it made. */
export const worktreePath = (dir: string, runId: string) => join(dir, runId)

/** Adds the worktree (once: a restart after it was added finds it there). Throws git's own words. */
export async function addWorktree(repo: string, path: string, branch: string): Promise<void> {
  if (existsSync(join(path, '.git'))) return
  try {
    await git('git', ['-C', repo, 'worktree', 'add', '-b', branch, path, 'HEAD'], { timeout: TIMEOUT_MS })
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new Error(`git worktree add failed: ${stderr || (err as Error).message}`)
  }
}

export async function removeWorktree(repo: string, path: string): Promise<void> {
  if (!existsSync(path)) return
  await git('git', ['-C', repo, 'worktree', 'remove', '--force', path], { timeout: TIMEOUT_MS })
}
