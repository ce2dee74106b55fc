// A recording from the dashboard's message box, turned into words by the configured speech-to-text
// service (sources/chat/transcription.ts, the one the chats' voice notes use) and answered to the page,
// which puts them in the box for the person to read and edit: nothing reaches a session from here, and
// nothing is kept. Its bytes are the body (a raw body, as a file's: the one app reads every body itself,
// at most its route's limit), its type the Content-Type, held to the files' limit (chatFileLimitMb).
// Without a service it says so in one line, and the page offers to attach the recording as a file.
import { type Context, Hono } from 'hono'
import { recordingTypeSchema } from '../../core/api/schemas.js'
import { conflict, invalid, tooLarge, unavailable } from '../../core/errors.js'
import { chatFileLimits, oversizeText } from '../../sources/chat/inbox.js'
import { transcribeBytes, transcriptionService } from '../../sources/chat/transcription.js'
import { type Before, defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import { requestBody } from './node-io.js'
import type { HubParts } from './parts.js'

const NO_SERVICE =
  'No speech-to-text service is configured (transcriptionUrl in config.json): the recording was not transcribed; attach it as a file instead.'

/** The recording's type, checked: audio of some kind. */
function recordingType(c: Context<HubEnv>): string {
  const parsed = recordingTypeSchema.safeParse(c.req.header('content-type'))
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'a recording is audio')
  return parsed.data
}

/** Throws the refusal of a recording over the files' limit (413), in the words a file's uses. */
function refuseSize(size: number, home: string): void {
  const { maxBytes } = chatFileLimits(home)
  if (size > maxBytes) throw tooLarge(oversizeText('The recording', size, maxBytes, 'it was not transcribed'))
}

/** A name the service can tell the format by (OpenAI's reads the extension): recording.webm, .ogg… */
function nameFor(type: string): string {
  const subtype = type.split(';')[0]?.split('/')[1]?.trim().toLowerCase() ?? ''
  const extension = EXTENSIONS[subtype] ?? subtype.replace(/^x-/, '')
  return `recording.${extension || 'webm'}`
}
const EXTENSIONS: Record<string, string> = {
  mpeg: 'mp3',
  mp4: 'm4a',
  'x-m4a': 'm4a',
  'x-wav': 'wav',
  wave: 'wav',
}

export function transcriptionRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { creds, home } = parts
  // Refused before a byte of the body is read: no service, a type that is not audio, a size over the limit.
  const before: Before = async (c) => {
    if (!transcriptionService(home)) throw conflict(NO_SERVICE)
    recordingType(c)
    const declared = c.req.header('content-length')
    if (declared !== undefined) refuseSize(Number(declared), home)
    return null
  }
  defineRoute(
    app,
    creds,
    'transcribe',
    async (c, { query }) => {
      const service = transcriptionService(home)
      if (!service) throw conflict(NO_SERVICE)
      const type = recordingType(c)
      const bytes = await requestBody(c)
      refuseSize(bytes.length, home)
      if (bytes.length === 0) throw invalid('The recording is empty: there is nothing to transcribe.')
      try {
        return { text: await transcribeBytes(service, bytes, query.name ?? nameFor(type), type) }
      } catch (err) {
        throw unavailable(`The recording was not transcribed: ${(err as Error).message}.`)
      }
    },
    { before, bodyLimit: () => chatFileLimits(home).maxBytes },
  )
  return app
}
