// What project a folder belongs to: the git repository it is in (its top folder, the branch checked
// out, where its `origin` remote lives), read from the repository's own files, no git process. The
// folder comes from a request (a hook's cwd), and may lie below folders anyone may write to, where
// another user can leave whatever they like; so the look is made as git makes its own, and safer:
//  - nothing is read synchronously, and the whole look gives up after a bound: the hub's event loop
//    never waits on it;
//  - only folders the user owns are looked in, and the walk up stops at one another user owns and at
//    the parent of the user's home; a `.git`, its git folder and the main repository's are the user's
//    too (git refuses a repository another user owns as "dubious ownership");
//  - only regular files are opened: each is lstat'ed first, opened without following a symlink and
//    without waiting (O_NONBLOCK), and fstat'ed again once open, so a named pipe or a device swapped in
//    meanwhile is closed unread; a read takes at most a few KiB;
//  - a worktree's (or a submodule's) `.git` is a file naming its git folder, whose `commondir` names
//    the main repository's: a worktree's origin is its main repository's.
import { constants, type Stats } from 'node:fs'
import { lstat, open, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** Where a repository's `origin` lives: `github.com`, `acme`, `widgets` (a GitLab group path: `group/sub`). */
export interface Repository {
  host: string
  owner: string
  name: string
}

export interface ProjectIdentity {
  /** The repository's top folder (a worktree's own); null: the folder is in no repository of the user's. */
  root: string | null
  /** The branch checked out; null when detached, or when it cannot tell. */
  branch: string | null
  /** From the `origin` remote's URL in the (main) repository's config; null: none, or not a URL of a host. */
  repository: Repository | null
  /** The repository's git folder (a worktree's own, under the main repository's `.git/worktrees/`). */
  gitDir: string | null
}

export const NO_PROJECT: ProjectIdentity = { root: null, branch: null, repository: null, gitDir: null }

export interface LookOptions {
  /** The owner a folder must have to be looked in: this process's user. */
  uid?: number
  /** The user's home: the walk never looks in its parent (`/home`), nor above it. */
  home?: string
  /** How long the whole look may take before it answers NO_PROJECT. */
  timeoutMs?: number
}

const LOOK_MS = 2_000
/** Deeper than any real project; a bound on the walk whatever the path. */
const MAX_DEPTH = 64
/** HEAD, a `.git` file and `commondir` hold a line; a repository's config, a few hundred bytes. */
const SMALL = 4 * 1024
const CONFIG = 64 * 1024

/** The project identity of `folder`; NO_PROJECT whenever it cannot tell safely and soon. */
export async function projectIdentity(folder: string, options: LookOptions = {}): Promise<ProjectIdentity> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<ProjectIdentity>((resolve) => {
    timer = setTimeout(() => resolve(NO_PROJECT), options.timeoutMs ?? LOOK_MS)
    timer.unref()
  })
  try {
    return await Promise.race([look(folder, options).catch(() => NO_PROJECT), late])
  } finally {
    clearTimeout(timer)
  }
}

/** The branch `folder`'s repository has checked out (for listing a terminal session). */
export async function gitBranch(folder: string): Promise<string | null> {
  return (await projectIdentity(folder)).branch
}

async function look(folder: string, options: LookOptions): Promise<ProjectIdentity> {
  const uid = options.uid ?? process.getuid?.()
  const owned = (s: Stats) => uid === undefined || s.uid === uid
  const home = options.home ?? homedir()
  const homeParent = dirname(await realpath(home).catch(() => resolve(home)))
  // The path as the system has it: each folder walked is a real folder, not a link to elsewhere.
  let dir = await realpath(folder)
  for (let depth = 0; depth < MAX_DEPTH && dir !== homeParent; depth++) {
    const here = await lstat(dir)
    if (!here.isDirectory() || !owned(here)) return NO_PROJECT
    const dotGit = join(dir, '.git')
    const found = await lstat(dotGit).catch(() => null)
    if (found) {
      // The nearest .git decides, as it does for git: one the user did not make is no project of theirs.
      if (!owned(found)) return NO_PROJECT
      if (found.isDirectory()) return identity(dir, dotGit, owned)
      if (!found.isFile()) return NO_PROJECT
      const named = /^gitdir: *(.+)$/m.exec((await readSmallFile(dotGit, SMALL)) ?? '')?.[1]?.trim()
      if (!named) return NO_PROJECT
      const gitDir = resolve(dir, named)
      return (await isOwnedFolder(gitDir, owned)) ? identity(dir, gitDir, owned) : NO_PROJECT
    }
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  return NO_PROJECT
}

async function identity(
  root: string,
  gitDir: string,
  owned: (s: Stats) => boolean,
): Promise<ProjectIdentity> {
  const head = (await readSmallFile(join(gitDir, 'HEAD'), SMALL)) ?? ''
  const branch = /^ref: refs\/heads\/(.+)$/.exec(head.trim())?.[1] ?? null
  // A worktree's git folder names the main repository's, where the remotes are configured.
  const common = (await readSmallFile(join(gitDir, 'commondir'), SMALL))?.trim()
  const commonDir = common ? resolve(gitDir, common) : gitDir
  let repository: Repository | null = null
  if (await isOwnedFolder(commonDir, owned)) {
    const url = originUrl((await readSmallFile(join(commonDir, 'config'), CONFIG)) ?? '')
    repository = url ? remoteRepository(url) : null
  }
  return { root, branch, repository, gitDir }
}

async function isOwnedFolder(path: string, owned: (s: Stats) => boolean): Promise<boolean> {
  const s = await stat(path).catch(() => null)
  return s?.isDirectory() === true && owned(s)
}

/**
 * A regular file's text, or null: not there, not a regular file (a named pipe, a device, a link), or
 * longer than `cap` bytes. For any file a request names (a project's own file, say).
 */
export async function readSmallFile(path: string, cap: number): Promise<string | null> {
  const before = await lstat(path).catch(() => null)
  if (!before?.isFile() || before.size > cap) return null
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(
    () => null,
  )
  if (!file) return null
  try {
    const now = await file.stat()
    if (!now.isFile() || now.size > cap) return null
    const buffer = Buffer.alloc(Math.min(now.size, cap))
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await file.close()
  }
}

/**
 * The `url` of `[remote "origin"]` in a git config file's text. Git's syntax as far as a remote's
 * URL needs it: section and key names in any case, `[remote.origin]` as old git wrote it, a value in
 * quotes or not, a comment after `#` or `;` outside quotes; the first url wins, as git fetches from it.
 */
export function originUrl(config: string): string | null {
  let inOrigin = false
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim()
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
    if (section) {
      const [name = '', sub] = [section[1], section[2]]
      inOrigin =
        sub !== undefined
          ? name.toLowerCase() === 'remote' && sub.replace(/\\(.)/g, '$1') === 'origin'
          : name.toLowerCase() === 'remote.origin'
      continue
    }
    if (!inOrigin) continue
    const entry = /^url\s*=\s*(.*)$/i.exec(line)
    if (!entry) continue
    const value = configValue(entry[1] ?? '')
    if (value) return value
  }
  return null
}

/** A config value as git reads it: quotes joined, escapes undone, a comment outside quotes cut. */
function configValue(text: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i] as string
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next
    } else if (c === '"') quoted = !quoted
    else if (!quoted && (c === '#' || c === ';')) break
    else out += c
  }
  return out.trim()
}

/**
 * Where a remote URL points: `https://host/owner/name(.git)`, `ssh://[user@]host[:port]/owner/name`,
 * `git://…`, and git's scp-like `[user@]host:owner/name.git`. A local path or a file URL is no host's:
 * null. The host is named without its port or credentials (one repository, whichever way it is reached).
 */
export function remoteRepository(url: string): Repository | null {
  let host: string
  let path: string
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  if (scheme) {
    if (!['https', 'http', 'ssh', 'git', 'git+ssh', 'ssh+git'].includes(scheme)) return null
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return null
    }
    host = parsed.hostname
    path = decodeURIComponent(parsed.pathname)
  } else {
    // scp-like: a colon before any slash (git's own rule), and a host rather than a drive letter.
    const scp = /^(?:[^@/]+@)?([^:/\\]{2,}):(?!\/\/)(.+)$/.exec(url)
    if (!scp) return null
    host = scp[1] as string
    path = scp[2] as string
  }
  const parts = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean)
  const name = parts.pop()
  if (!host || !name || !parts.length || parts.includes('..')) return null
  return { host: host.toLowerCase().replace(/^\[|\]$/g, ''), owner: parts.join('/'), name }
}
