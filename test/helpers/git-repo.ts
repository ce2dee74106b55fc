// A git repository for the routines' worktrees: made in `dir` with one commit on main, and git run in it.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function gitRepository(dir: string): { dir: string; git: (...args: string[]) => string } {
  mkdirSync(dir)
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(dir, 'README'), 'hello\n')
  git('add', 'README')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'first')
  return { dir, git }
}
