// IDE binding: a running session's CLI is given a live IDE's MCP server beside its own servers, as
// Claude Code's /ide does; a CLI that takes none, or an IDE nobody runs, is said so plainly.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { FakeScript } from '../../../test/helpers/fake-claude.js'
import { type SessionWorld, sessionWorld } from '../../../test/helpers/session-world.js'

let world: SessionWorld
afterEach(async () => {
  await world.close()
})

const OWN_SERVERS = JSON.stringify({ mcpServers: { notes: { command: 'notes-server' } } })

/** A world with IDEs running (their lock files, owned by this live process). */
async function withIdes(script: FakeScript, ides: { port: number; name: string }[]) {
  world = sessionWorld(script)
  const folder = join(world.dir, 'ide')
  mkdirSync(folder, { recursive: true })
  for (const ide of ides)
    writeFileSync(
      join(folder, `${ide.port}.lock`),
      JSON.stringify({ pid: process.pid, ideName: ide.name, transport: 'ws', authToken: `tok-${ide.port}` }),
    )
  const { id } = await world.sessions.create('hello', { cwd: world.dir, mcpConfig: OWN_SERVERS })
  await world.until(id, (v) => v.status === 'idle', 'the first turn')
  return id
}

const setServers = () =>
  world.fake
    .got()
    .filter((l) => l.type === 'control_request')
    .map((l) => (l.request as { subtype: string; servers?: unknown }).servers)

describe('binding a session to an IDE', () => {
  it('gives the CLI the IDE’s server beside its own, by name, and the session shows it', async () => {
    const id = await withIdes({}, [{ port: 40123, name: 'Visual Studio Code' }])
    expect(await world.sessions.bindIde(id, 'visual studio code')).toMatchObject({
      ide: { port: 40123, name: 'Visual Studio Code' },
    })
    expect(setServers()).toEqual([
      {
        notes: { command: 'notes-server' },
        ide: {
          type: 'ws-ide',
          url: 'ws://127.0.0.1:40123',
          ideName: 'Visual Studio Code',
          authToken: 'tok-40123',
          scope: 'dynamic',
        },
      },
    ])
  })

  it('unbinds with null: the CLI keeps its own servers only', async () => {
    const id = await withIdes({}, [{ port: 40124, name: 'Cursor' }])
    await world.sessions.bindIde(id, '40124')
    expect(await world.sessions.bindIde(id, null)).toMatchObject({ ide: null })
    expect(setServers().at(-1)).toEqual({ notes: { command: 'notes-server' } })
  })

  it('is a conflict with a CLI that takes no IDE from outside, and leaves the session unbound', async () => {
    const id = await withIdes({ mcpSetServers: { errors: { ide: 'ide is registered by the CLI itself' } } }, [
      { port: 40125, name: 'Cursor' },
    ])
    await expect(world.sessions.bindIde(id, 'Cursor')).rejects.toMatchObject({
      kind: 'conflict',
      message: 'this Claude Code took no IDE: ide is registered by the CLI itself',
    })
    expect((await world.sessions.view(id)).ide).toBeNull()
  })

  it('names an IDE nobody runs as not found, and one of two of a name as the caller’s to make plain', async () => {
    const id = await withIdes({}, [
      { port: 40126, name: 'Cursor' },
      { port: 40127, name: 'Cursor' },
    ])
    await expect(world.sessions.bindIde(id, 'Zed')).rejects.toMatchObject({
      kind: 'not_found',
      message: 'no live IDE "Zed"; live IDEs: 40126 (Cursor), 40127 (Cursor)',
    })
    await expect(world.sessions.bindIde(id, 'cursor')).rejects.toMatchObject({
      kind: 'invalid',
      message: '2 IDEs are called "cursor"; name one by its port: 40126 (Cursor), 40127 (Cursor)',
    })
    expect(setServers()).toEqual([])
  })
})
