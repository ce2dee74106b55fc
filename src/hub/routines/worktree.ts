// A run's own git worktree (a routine whose action names `worktree`): added from the repository's
// HEAD on a new branch before the session starts, in a folder named by the run, and removed when the
// run ends as its cleanup policy says, unless the session left changes in it it did not commit. The
// branch stays: what the session committed is kept.
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

/** What a run's worktree holds at its end: its branch, and what in it is not committed. */
export interface WorktreeState {
  branch: string | null
  /** `git status --porcelain` lines: changed, staged, deleted and untracked files. */
  uncommitted: string[]
}

/**
 * The worktree's branch and uncommitted changes; null when there is no worktree at `path`. Throws
 * git's own words when git cannot tell (then nothing may be taken to be committed).
 */
export async function worktreeState(path: string): Promise<WorktreeState | null> {
  if (!existsSync(path)) return null
  try {
    const { stdout } = await git('git', ['-C', path, 'status', '--porcelain', '--branch'], {
      timeout: TIMEOUT_MS,
    })
    const [head = '', ...lines] = stdout.split('\n').filter(Boolean)
    return { branch: branchOf(head), uncommitted: lines }
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new Error(`git status failed: ${stderr || (err as Error).message}`)
  }
}

/** `## fix/g1...origin/fix/g1 [ahead 1]`, `## No commits yet on main`, `## HEAD (no branch)`. */
function branchOf(head: string): string | null {
  const said = head.replace(/^## /, '')
  if (said.startsWith('HEAD (no branch)')) return null
  const unborn = /^No commits yet on (.+)$/.exec(said)?.[1]
  return unborn ?? said.split('...')[0]?.split(' ')[0] ?? null
}
