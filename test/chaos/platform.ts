// The fake Telegram as a platform in a namespace of its own: the fake runs in this process, where
// the test reads and drives it, and a door in the `platform` namespace (Netns.door) passes each
// connection to it, so a hub reaches it only over its veth link to `platform`, and cutting that link
// cuts the hub off from Telegram while the hub keeps everything else.
import { rmSync } from 'node:fs'
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.js'
import { freePort } from '../helpers/home.js'
import type { Netns } from './netns.js'

export interface NsPlatform {
  telegram: FakeTelegram
  /** The Bot API root a hub in namespace `from` dials: the platform's address on their link. */
  apiRoot(from: string): string
  close(): Promise<void>
}

/** The fake Telegram, reached from namespace `name` (linked to the hubs already) on one port. */
export async function startNsPlatform(netns: Netns, name: string): Promise<NsPlatform> {
  const telegram = await startFakeTelegram()
  const at = new URL(telegram.credentials.apiUrl as string)
  const socketPath = join(tmpdir(), `sb${process.pid}-${name}.sock`)
  rmSync(socketPath, { force: true })
  const sockets = new Set<Socket>()
  const server: Server = createServer((near) => {
    const far = tcpConnect({ host: at.hostname, port: Number(at.port) })
    const end = () => {
      near.destroy()
      far.destroy()
      sockets.delete(near)
      sockets.delete(far)
    }
    for (const s of [near, far]) {
      sockets.add(s)
      s.on('error', end)
      s.on('close', end)
    }
    near.pipe(far).pipe(near)
  })
  await new Promise<void>((resolve) => server.listen(socketPath, resolve))
  const port = await freePort()
  const door = await netns.door(name, port, socketPath)
  return {
    telegram,
    apiRoot: (from) => `http://${netns.address(from, name)}:${port}`,
    async close() {
      door.kill('SIGKILL')
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(socketPath, { force: true })
      await telegram.close()
    },
  }
}
