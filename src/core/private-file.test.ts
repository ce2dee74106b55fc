import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { replacePrivateFile } from './private-file.js'

it('replaces a file whole, readable by its owner only, leaving no draft beside it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-private-'))
  const file = join(dir, 'hub.json')
  writeFileSync(file, 'old', { mode: 0o644 })
  writeFileSync(`${file}.${process.pid}.tmp`, 'a draft a crash left', { mode: 0o644 })
  replacePrivateFile(file, '{"pid":1}')
  expect(readFileSync(file, 'utf8')).toBe('{"pid":1}')
  expect(statSync(file).mode & 0o777).toBe(0o600)
  expect(readdirSync(dir)).toEqual(['hub.json'])
})
