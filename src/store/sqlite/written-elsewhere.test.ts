// The home's SQLite file has two writers: the hub, and the CLI working on the store directly
// (`switchboard pair`, `access allow`). The hub hears of the CLI's commits from the store, not only
// from a slow sweep of its own, so what the CLI stored for a person (their "Paired") goes out at once.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { Store } from '../store.js'
import { openSqliteStore } from './index.js'

let dir: string
let hub: Store
let cli: Store

beforeEach(() => {
  vi.useFakeTimers()
  dir = mkdtempSync(join(tmpdir(), 'switchboard-written-'))
  hub = openSqliteStore(join(dir, 'switchboard.db'))
  cli = openSqliteStore(join(dir, 'switchboard.db'))
})

afterEach(async () => {
  vi.useRealTimers()
  await cli.close()
  await hub.close()
  rmSync(dir, { recursive: true, force: true })
})

const sender = (name: string) => ({
  name,
  tokenHash: `hash-${name}`,
  status: 'allowed' as const,
  operator: false,
})

it('tells the hub when another process committed to the file, and not of its own writes', async () => {
  const heard = vi.fn()
  expect(hub.onWrittenElsewhere).toBeTypeOf('function')
  hub.onWrittenElsewhere?.(heard)

  await hub.addSender(sender('own'))
  await vi.advanceTimersByTimeAsync(2_000)
  expect(heard).not.toHaveBeenCalled()

  await cli.addSender(sender('paired-at-the-terminal'))
  await vi.advanceTimersByTimeAsync(2_000)
  expect(heard).toHaveBeenCalledTimes(1)
})

it('stops telling once the listener is taken back', async () => {
  const heard = vi.fn()
  const stop = hub.onWrittenElsewhere?.(heard)
  stop?.()
  await cli.addSender(sender('later'))
  await vi.advanceTimersByTimeAsync(2_000)
  expect(heard).not.toHaveBeenCalled()
})
