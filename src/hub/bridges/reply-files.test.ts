import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkReplyFiles, readReplyFiles } from './reply-files.js'

describe('which files a reply may attach', () => {
  let user: string
  let home: string
  const savedHome = process.env.HOME

  beforeEach(() => {
    user = realpathSync(mkdtempSync(join(tmpdir(), 'reply-files-')))
    home = join(user, '.switchboard')
    mkdirSync(join(home, 'inbox', 'telegram'), { recursive: true })
    process.env.HOME = user
  })

  afterEach(() => {
    process.env.HOME = savedHome
    rmSync(user, { recursive: true, force: true })
  })

  it('keeps ~/.ssh and the hub’s home out even of a session run in the user’s home; its inbox may go', async () => {
    mkdirSync(join(user, '.ssh'))
    writeFileSync(join(user, '.ssh', 'id_rsa'), 'KEY')
    writeFileSync(join(home, 'admin-token'), 'TOKEN')
    writeFileSync(join(home, 'inbox', 'telegram', 'photo.png'), 'PNG')
    writeFileSync(join(user, 'notes.md'), 'notes')
    const origin = { home, folder: user }
    await expect(checkReplyFiles([join(user, '.ssh', 'id_rsa')], origin)).rejects.toThrow(/~\/\.ssh/)
    await expect(checkReplyFiles([join(home, 'admin-token')], origin)).rejects.toThrow(/Switchboard's home/)
    const sent = await readReplyFiles(
      [join(home, 'inbox', 'telegram', 'photo.png'), join(user, 'notes.md')],
      origin,
    )
    expect(sent.map((f) => [f.name, f.bytes.toString()])).toEqual([
      ['photo.png', 'PNG'],
      ['notes.md', 'notes'],
    ])
  })

  it('takes a folder from replyFileRoots, and refuses a FIFO at once instead of waiting on it', async () => {
    const shared = join(user, 'shared')
    mkdirSync(shared)
    writeFileSync(join(shared, 'plan.txt'), 'plan')
    const origin = { home, folder: join(user, 'project') }
    await expect(checkReplyFiles([join(shared, 'plan.txt')], origin)).rejects.toThrow(/outside the folders/)
    writeFileSync(join(home, 'config.json'), JSON.stringify({ replyFileRoots: [shared] }))
    await expect(checkReplyFiles([join(shared, 'plan.txt')], origin)).resolves.toBeUndefined()
    execFileSync('mkfifo', [join(shared, 'pipe')])
    await expect(checkReplyFiles([join(shared, 'pipe')], origin)).rejects.toThrow(/not a file/)
    await expect(checkReplyFiles(['relative.txt'], origin)).rejects.toThrow(/absolute/)
  })

  it('holds a reply to chatFileLimitMb, the limit files from the chats are held to', async () => {
    const project = join(user, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'big.bin'), Buffer.alloc(2 * 1024 * 1024))
    const origin = { home, folder: project }
    await expect(checkReplyFiles([join(project, 'big.bin')], origin)).resolves.toBeUndefined()
    writeFileSync(join(home, 'config.json'), JSON.stringify({ chatFileLimitMb: 1 }))
    await expect(checkReplyFiles([join(project, 'big.bin')], origin)).rejects.toThrow(
      `${join(project, 'big.bin')} is over 1 MB (chatFileLimitMb)`,
    )
  })
})
