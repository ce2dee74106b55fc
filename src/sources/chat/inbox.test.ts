import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { chatFileLimits, refusalOf, typeOf } from './inbox.js'
import type { InboundAttachment } from './platform.js'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'chat-files-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const file = (over: Partial<InboundAttachment>): InboundAttachment => ({
  kind: 'document',
  ref: 'r',
  name: null,
  mime: null,
  size: null,
  ...over,
})

it('states the limit and the types a refused file missed, from config.json as it is now', () => {
  const limits = chatFileLimits(home)
  expect(limits.maxBytes).toBe(50 * 1024 * 1024)
  expect(refusalOf(file({ name: 'scan.pdf', mime: 'application/pdf', size: 1000 }), limits)).toBeNull()
  expect(refusalOf(file({ kind: 'photo', size: 1000 }), limits)).toBeNull()
  expect(refusalOf(file({ name: 'huge.pdf', mime: 'application/pdf', size: 60 * 1024 * 1024 }), limits)).toBe(
    '“huge.pdf” is 60 MB, over the 50 MB limit for files (chatFileLimitMb): it was not passed on.',
  )
  expect(refusalOf(file({ name: 'setup.exe', mime: 'application/x-msdownload', size: 10 }), limits)).toMatch(
    /^“setup\.exe” is application\/x-msdownload, which is not taken \(chatFileTypes: image\/\*, .+\): it was not passed on\.$/,
  )
  writeFileSync(join(home, 'config.json'), JSON.stringify({ chatFileLimitMb: 1, chatFileTypes: ['*/*'] }))
  const changed = chatFileLimits(home)
  expect(
    refusalOf(file({ name: 'setup.exe', mime: 'application/x-msdownload', size: 10 }), changed),
  ).toBeNull()
  expect(refusalOf(file({ name: 'a.bin', size: 2 * 1024 * 1024 }), changed)).toMatch(/over the 1 MB limit/)
})

it('tells a file’s type by what the platform said, else its kind or its name', () => {
  expect(typeOf(file({ mime: 'Application/PDF; charset=x' }))).toBe('application/pdf')
  expect(typeOf(file({ kind: 'photo' }))).toBe('image/jpeg')
  expect(typeOf(file({ kind: 'voice' }))).toBe('audio/ogg')
  expect(typeOf(file({ name: 'notes.MD' }))).toBe('text/markdown')
  expect(typeOf(file({ name: 'blob' }))).toBe('application/octet-stream')
})
