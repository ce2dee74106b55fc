import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { gitRepository } from '../../../test/helpers/git-repo.js'
import { gitBranch, NO_PROJECT, originUrl, projectIdentity, remoteRepository } from './project-identity.js'

const NOBODY = 65534
const asRoot = process.getuid?.() === 0

let template: string
let base: string
/** The user's home for these looks: its parent, `base`, is where every walk ends. */
let home: string
/** A repository with one commit on main and an origin on GitHub: a copy of the template for each test. */
let repo: { dir: string; git: (...args: string[]) => string }
const look = (folder: string, options = {}) => projectIdentity(folder, { home, ...options })

beforeAll(() => {
  template = realpathSync(mkdtempSync(join(tmpdir(), 'project-identity-template-')))
  gitRepository(join(template, 'widgets')).git(
    'remote',
    'add',
    'origin',
    'https://github.com/Acme/Widgets.git',
  )
})

afterAll(() => {
  rmSync(template, { recursive: true, force: true })
})

/** A folder of the test's own, with a copy of the repository in it. */
function ownFolder(): void {
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'project-identity-')))
    home = join(base, 'me')
    const dir = join(base, 'widgets')
    cpSync(join(template, 'widgets'), dir, { recursive: true })
    repo = { dir, git: (...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }) }
  })
  afterEach(() => {
    rmSync(base, { recursive: true, force: true })
  })
}

describe('a repository the user made', () => {
  ownFolder()

  it('names its top folder, branch, origin and git folder from any folder inside it', async () => {
    const deep = join(repo.dir, 'src', 'deep')
    mkdirSync(deep, { recursive: true })
    expect(await look(deep)).toEqual({
      root: repo.dir,
      branch: 'main',
      repository: { host: 'github.com', owner: 'Acme', name: 'Widgets' },
      gitDir: join(repo.dir, '.git'),
    })
  })

  it('names a worktree’s own folder and branch, and its main repository’s origin', async () => {
    const tree = join(base, 'widgets-feature')
    repo.git('worktree', 'add', '-q', '-b', 'feature/hooks', tree)
    expect(await look(tree)).toEqual({
      root: tree,
      branch: 'feature/hooks',
      repository: { host: 'github.com', owner: 'Acme', name: 'Widgets' },
      gitDir: join(repo.dir, '.git', 'worktrees', 'widgets-feature'),
    })
    expect(await gitBranch(tree)).toBe('feature/hooks')
  })

  it('names no branch when HEAD is detached, and no repository without an origin of a host', async () => {
    repo.git('checkout', '-q', '--detach')
    expect(await look(repo.dir)).toMatchObject({ branch: null, repository: { name: 'Widgets' } })
    repo.git('remote', 'set-url', 'origin', '/srv/git/widgets.git')
    expect((await look(repo.dir)).repository).toBeNull()
    repo.git('remote', 'remove', 'origin')
    repo.git('remote', 'add', 'upstream', 'git@github.com:acme/widgets.git')
    expect((await look(repo.dir)).repository).toBeNull()
  })

  it('reads origin as git wrote it over ssh', async () => {
    repo.git('remote', 'set-url', 'origin', 'git@gitlab.example.com:group/sub/widgets.git')
    expect((await look(repo.dir)).repository).toEqual({
      host: 'gitlab.example.com',
      owner: 'group/sub',
      name: 'widgets',
    })
  })

  it('reads no config longer than a config is, and still names the branch', async () => {
    const config = join(repo.dir, '.git', 'config')
    appendFileSync(config, `# ${'x'.repeat(100_000)}\n`)
    expect(await look(repo.dir)).toMatchObject({ branch: 'main', repository: null })
  })

  it('is in no project outside a repository, nor through a folder above the home', async () => {
    const plain = join(base, 'plain')
    mkdirSync(plain)
    expect(await look(plain)).toEqual(NO_PROJECT)
    // A repository at /home would hold every home: it is not looked in.
    const inside = join(repo.dir, 'me', 'project')
    mkdirSync(inside, { recursive: true })
    expect(await look(inside, { home: join(repo.dir, 'me') })).toEqual(NO_PROJECT)
    expect((await look(inside)).root).toBe(repo.dir)
  })
})

describe('what another user may leave above a folder', () => {
  ownFolder()

  it('never waits on a named pipe called .git, nor on one in a git folder', async () => {
    const shared = join(base, 'shared')
    mkdirSync(join(shared, 'project'), { recursive: true })
    execFileSync('mkfifo', [join(shared, '.git')])
    expect(await look(join(shared, 'project'))).toEqual(NO_PROJECT)

    const piped = join(base, 'piped')
    mkdirSync(join(piped, '.git'), { recursive: true })
    for (const file of ['HEAD', 'config', 'commondir']) execFileSync('mkfifo', [join(piped, '.git', file)])
    expect(await look(piped)).toEqual({
      root: piped,
      branch: null,
      repository: null,
      gitDir: join(piped, '.git'),
    })
  })

  it('follows no .git that is a link, nor a .git file naming something that is not a folder', async () => {
    const linked = join(base, 'linked')
    mkdirSync(linked)
    execFileSync('ln', ['-s', join(repo.dir, '.git'), join(linked, '.git')])
    expect(await look(linked)).toEqual(NO_PROJECT)
    const named = join(base, 'named')
    mkdirSync(named)
    writeFileSync(join(named, '.git'), `gitdir: ${join(repo.dir, 'README')}\n`)
    expect(await look(named)).toEqual(NO_PROJECT)
  })

  it('takes no repository the user does not own for theirs', async () => {
    const uid = (process.getuid?.() ?? 0) + 1
    expect(await look(repo.dir, { uid })).toEqual(NO_PROJECT)
  })

  ;(asRoot ? it : it.skip)(
    'stops at a folder another user owns, and at a .git of theirs (needs root to give them away)',
    async () => {
      const theirs = join(repo.dir, 'theirs')
      mkdirSync(join(theirs, 'mine'), { recursive: true })
      chownSync(theirs, NOBODY, NOBODY)
      expect(await look(join(theirs, 'mine'))).toEqual(NO_PROJECT)

      const shared = join(base, 'shared')
      mkdirSync(join(shared, '.git'), { recursive: true })
      writeFileSync(join(shared, '.git', 'HEAD'), 'ref: refs/heads/theirs\n')
      chownSync(join(shared, '.git'), NOBODY, NOBODY)
      mkdirSync(join(shared, 'project'))
      expect(await look(join(shared, 'project'))).toEqual(NO_PROJECT)
    },
  )
})

describe('a git config’s origin', () => {
  it('is the first url of [remote "origin"], however git or a person wrote the file', () => {
    const config = [
      '[core]',
      '\trepositoryformatversion = 0',
      '[remote "upstream"]',
      '\turl = https://github.com/upstream/widgets.git',
      '[Remote "origin"]  # ours',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '\tURL = "https://github.com/acme/widgets.git" ; the first',
      '\turl = https://github.com/acme/mirror.git',
    ].join('\n')
    expect(originUrl(config)).toBe('https://github.com/acme/widgets.git')
    expect(originUrl('[remote.origin]\nurl = git@github.com:acme/old.git\n')).toBe(
      'git@github.com:acme/old.git',
    )
    expect(originUrl('[remote "origin2"]\nurl = x:y/z\n[remote "upstream"]\nurl = a:b/c')).toBeNull()
    expect(originUrl('')).toBeNull()
  })
})

describe('a remote URL’s repository', () => {
  const widgets = { host: 'github.com', owner: 'acme', name: 'widgets' }
  it.each([
    ['https://github.com/acme/widgets.git', widgets],
    ['https://github.com/acme/widgets', widgets],
    ['https://github.com/acme/widgets/', widgets],
    ['https://token:x-oauth@GitHub.com/acme/widgets.git', widgets],
    ['http://github.com:8080/acme/widgets', widgets],
    ['ssh://git@github.com/acme/widgets.git', widgets],
    ['ssh://git@github.com:22/acme/widgets.git', widgets],
    ['git+ssh://git@github.com/acme/widgets.git', widgets],
    ['git://github.com/acme/widgets.git', widgets],
    ['git@github.com:acme/widgets.git', widgets],
    ['github.com:acme/widgets', widgets],
    ['git@github.com:/acme/widgets.git', widgets],
    ['https://gitlab.com/group/sub/widgets.git', { host: 'gitlab.com', owner: 'group/sub', name: 'widgets' }],
  ])('%s', (url, repository) => {
    expect(remoteRepository(url)).toEqual(repository)
  })

  it.each([
    '/srv/git/widgets.git',
    '../widgets',
    'file:///srv/git/acme/widgets.git',
    'https://github.com/widgets',
    'https://github.com/',
    'C:\\git\\widgets',
    'git@github.com:widgets.git',
    'ftp://example.com/acme/widgets',
    'https://github.com/acme/../widgets',
    '',
  ])('%s is no host’s', (url) => {
    expect(remoteRepository(url)).toBeNull()
  })
})
