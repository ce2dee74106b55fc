// A recording from the dashboard's message box (issue 36): its bytes go as the body, its type as
// Content-Type, and the words come back from the configured speech-to-text service (a fake one here,
// OpenAI's POST /v1/audio/transcriptions) for the person to edit; nothing is sent to a session and
// nothing is kept. Without a service, over the files' limit, or not audio, it says so in one line.
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { FakeTranscription } from '../../../test/fakes/transcription.js'
import { ADMIN_TOKEN, type AppWorld, appWorld } from '../../../test/helpers/app-world.js'

let world: AppWorld
let speech: FakeTranscription
beforeAll(async () => {
  speech = await new FakeTranscription().start()
})
afterAll(async () => {
  await speech.close()
})
afterEach(async () => {
  await world?.close()
})

const operator = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-switchboard': '1' }

function useSpeech(extra: Record<string, unknown> = {}): void {
  writeFileSync(join(world.dir, 'config.json'), JSON.stringify({ transcriptionUrl: speech.url, ...extra }))
}

const post = (query: string, type: string | null, body: Buffer) =>
  world.request('POST', `/api/transcriptions${query}`, {
    headers: { ...operator, ...(type ? { 'content-type': type } : {}) },
    body,
  })

it('answers the words of a recording, named for its type, and keeps nothing', async () => {
  world = appWorld({ turns: [] })
  useSpeech()
  speech.hears('run the tests again')
  const recording = Buffer.from('\x1aE\xdf\xa3 webm opus frames')
  const answer = await post('', 'audio/webm;codecs=opus', recording)
  expect(answer.status, answer.text).toBe(200)
  expect(answer.json).toEqual({ text: 'run the tests again' })
  expect(speech.requests.at(-1)).toMatchObject({ fileName: 'recording.webm', bytes: recording.length })
  expect(existsSync(join(world.dir, 'inbox')) ? readdirSync(join(world.dir, 'inbox')) : []).toEqual([])
  expect(world.fake.got().filter((l) => l.type === 'user')).toEqual([])

  // The typed client (the page's) sends a Blob as it is, with its type.
  speech.hears('and then deploy')
  const call = world.client(ADMIN_TOKEN)
  const typed = await call('transcribe', { query: {}, file: new Blob(['OggS'], { type: 'audio/ogg' }) })
  expect(typed).toEqual({ text: 'and then deploy' })
  expect(speech.requests.at(-1)?.fileName).toBe('recording.ogg')
})

it('says in one line that no speech-to-text service is configured, before reading the recording', async () => {
  world = appWorld({ turns: [] })
  const before = speech.requests.length
  const answer = await post('', 'audio/webm', Buffer.from('webm'))
  expect(answer.status).toBe(409)
  expect(answer.json.error).toBe(
    'No speech-to-text service is configured (transcriptionUrl in config.json): the recording was not transcribed; attach it as a file instead.',
  )
  expect(speech.requests.length).toBe(before)
})

it('refuses a recording over chatFileLimitMb (413), one that is not audio or has no type (400), and an empty one', async () => {
  world = appWorld({ turns: [] })
  useSpeech({ chatFileLimitMb: 1 })
  const before = speech.requests.length
  const big = await post('', 'audio/webm', Buffer.alloc(1024 * 1024 + 1))
  expect(big.status).toBe(413)
  expect(big.json.error).toBe(
    'The recording is 1.0 MB, over the 1 MB limit for files (chatFileLimitMb): it was not transcribed.',
  )
  const notAudio = await post('', 'text/plain', Buffer.from('words'))
  expect(notAudio.status).toBe(400)
  expect(notAudio.json.error).toBe('a recording is audio (audio/webm, audio/ogg…), not text/plain')
  const untyped = await post('', null, Buffer.from('webm'))
  expect(untyped.status).toBe(400)
  expect(untyped.json.error).toMatch(/^a recording .*audio/)
  const empty = await post('', 'audio/webm', Buffer.alloc(0))
  expect(empty.status).toBe(400)
  expect(empty.json.error).toBe('The recording is empty: there is nothing to transcribe.')
  const unknownQuery = await post('?lang=en', 'audio/webm', Buffer.from('webm'))
  expect(unknownQuery.status).toBe(400)
  expect(speech.requests.length).toBe(before)
})

it('says why when the service fails, in one line (503)', async () => {
  world = appWorld({ turns: [] })
  writeFileSync(
    join(world.dir, 'config.json'),
    JSON.stringify({ transcriptionUrl: `${speech.url.replace('/v1/', '/v9/')}` }),
  )
  const answer = await post('', 'audio/webm', Buffer.from('webm'))
  expect(answer.status).toBe(503)
  expect(answer.json.error).toBe(
    'The recording was not transcribed: the speech-to-text service answered HTTP 404.',
  )
})
