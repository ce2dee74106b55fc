// A git repository for the routines' worktrees: made in `dir` with one commit on main, and git run in it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface GitRepository {
  dir: string
  git: (...args: string[]) => string
  /** Whether git has forgotten the worktree at `path`: `git worktree remove` deletes the folder before
   * its own record of it, so a folder gone is not yet a worktree gone. */
  forgot: (path: string) => boolean
}

export function gitRepository(dir: string): GitRepository {
  mkdirSync(dir)
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(dir, 'README'), 'hello\n')
  git('add', 'README')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'first')
  const forgot = (path: string) => !existsSync(path) && !git('worktree', 'list', '--porcelain').includes(path)
  return { dir, git, forgot }
}
