// A file from the dashboard into a driven session (issue 36): its bytes go as the request's body, its
// type as Content-Type and its name in the query; it lands in the session's folder of the inbox, the
// one store and limit the chats' files use, and the session is told its path, type and size.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'
import { waitFor } from '../../../test/helpers/home.js'

let world: AppWorld
afterEach(async () => {
  await world?.close()
})

const operator = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-switchboard': '1' }

/** What the CLI was given as user messages, as text. */
function userTexts(): string[] {
  return world.fake
    .got()
    .filter((l) => l.type === 'user')
    .map((l) => JSON.stringify(l))
}

async function startSession(): Promise<string> {
  world = appWorld({ turns: [{ steps: [{ say: 'ready' }] }, { steps: [{ say: 'seen' }] }] })
  const call = world.client(ADMIN_TOKEN)
  const { id } = await call('createSession', { body: { prompt: 'hello', options: { cwd: world.dir } } })
  await waitFor(async () => (await call('session', { params: { id } })).status === 'idle', 10_000, 'idle')
  return id
}

const upload = (id: string, query: string, type: string, body: Buffer) =>
  world.request('POST', `/api/sessions/${id}/files?${query}`, {
    headers: { ...operator, 'content-type': type },
    body,
  })

it('stores an uploaded file in the session’s inbox and tells the session its path, type and size', async () => {
  const id = await startSession()
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255, 0])
  const sent = await upload(id, 'name=screen%20shot.png&text=what%20is%20wrong%20here%3F', 'image/png', bytes)
  expect(sent.status, sent.text).toBe(202)
  const file = sent.json.file as { path: string; type: string; size: number }
  expect(file).toEqual({ path: expect.any(String), type: 'image/png', size: bytes.length })
  const folder = join(world.dir, 'inbox', id)
  expect(readdirSync(folder).map((name) => join(folder, name))).toEqual([file.path])
  expect(file.path).toMatch(/screen shot\.png$/)
  expect(readFileSync(file.path).equals(bytes)).toBe(true)

  await waitFor(() => userTexts().some((t) => t.includes(file.path)), 10_000, 'the file to reach the CLI')
  const told = userTexts().find((t) => t.includes(file.path)) as string
  expect(told).toContain('what is wrong here?')
  expect(told).toContain(`${file.path} (image/png, ${bytes.length} bytes)`)

  // The typed client (the page's, the CLI's) sends a Blob as it is, with its type.
  const call = world.client(ADMIN_TOKEN)
  const notes = await call('uploadFile', {
    params: { id },
    query: { name: 'notes.md' },
    file: new Blob(['# héllo\n'], { type: 'text/markdown' }),
  })
  expect(notes.file).toMatchObject({ type: 'text/markdown', size: Buffer.byteLength('# héllo\n') })
  expect(readFileSync(notes.file.path, 'utf8')).toBe('# héllo\n')
})

it('refuses a file over chatFileLimitMb (413) and one of a type chatFileTypes does not name (400), keeping neither', async () => {
  const id = await startSession()
  writeFileSync(join(world.dir, 'config.json'), JSON.stringify({ chatFileLimitMb: 1 }))
  const big = await upload(id, 'name=big.pdf', 'application/pdf', Buffer.alloc(1024 * 1024 + 1))
  expect(big.status).toBe(413)
  expect(big.json.error).toBe(
    '“big.pdf” is 1.0 MB, over the 1 MB limit for files (chatFileLimitMb): it was not sent.',
  )
  const exe = await upload(id, 'name=setup.exe', 'application/x-msdownload', Buffer.from('MZ'))
  expect(exe.status).toBe(400)
  expect(exe.json.error).toMatch(
    /^“setup\.exe” is application\/x-msdownload, which is not taken \(chatFileTypes: image\/\*, .+\): it was not sent\.$/,
  )
  const nameless = await upload(id, '', 'text/plain', Buffer.from('hi'))
  expect(nameless.status).toBe(400)
  expect(nameless.json.error).toMatch(/^name: /)
  const empty = await upload(id, 'name=empty.txt', 'text/plain', Buffer.alloc(0))
  expect(empty.status).toBe(400)
  expect(empty.json.error).toBe('“empty.txt” is empty: there is nothing to send.')
  const inbox = join(world.dir, 'inbox')
  const kept = existsSync(inbox) ? readdirSync(inbox).flatMap((d) => readdirSync(join(inbox, d))) : []
  expect(kept).toEqual([])
  expect(userTexts().some((t) => t.includes('big.pdf') || t.includes('setup.exe'))).toBe(false)
})
