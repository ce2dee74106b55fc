// The git branch a folder is on, from its repository's HEAD file (the nearest .git up the tree), for
// listing a terminal session: no git process, and null whenever it cannot tell (detached, no repo).
import { readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export function gitBranch(folder: string): string | null {
  let dir = resolve(folder)
  for (let depth = 0; depth < 40; depth++) {
    const dotGit = join(dir, '.git')
    try {
      // A worktree's .git is a file naming its own git folder.
      const gitDir = statSync(dotGit).isDirectory()
        ? dotGit
        : resolve(
            dir,
            readFileSync(dotGit, 'utf8')
              .replace(/^gitdir:\s*/, '')
              .trim(),
          )
      const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
      const m = /^ref: refs\/heads\/(.+)$/.exec(head)
      return m?.[1] ?? null
    } catch {
      // not here: one folder up
    }
    const up = dirname(dir)
    if (up === dir) return null
    dir = up
  }
  return null
}
