import { expect, it } from 'vitest'
import { fileSize } from './size.ts'

it('reads a size in bytes, KB or MB, one decimal below ten', () => {
  expect(fileSize(0)).toBe('0 B')
  expect(fileSize(1023)).toBe('1023 B')
  expect(fileSize(1536)).toBe('1.5 KB')
  expect(fileSize(200 * 1024)).toBe('200 KB')
  expect(fileSize(1024 * 1024 + 1)).toBe('1.0 MB')
  expect(fileSize(60 * 1024 * 1024)).toBe('60 MB')
})
