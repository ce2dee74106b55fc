// Speech to text for voice notes (the chats') and recordings (the dashboard's): an OpenAI-compatible
// POST /v1/audio/transcriptions (multipart: the file and the model), which a local whisper.cpp or
// faster-whisper server speaks as the hosted ones do. The service is the user's choice
// (transcriptionUrl, transcriptionKey in config.json, read again at each note); without one a voice
// note is a file like any other. Here, below the bridges and the HTTP app, so both use it.
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import * as z from 'zod'
import { invalid } from '../../core/errors.js'
import { liveSettings } from '../../core/settings/resolve.js'

export interface TranscriptionService {
  url: string
  key: string | null
  model: string
}

/** A note longer than this is not worth waiting on; the sender is told and it goes as a file. */
const TRANSCRIBE_TIMEOUT_MS = 120_000

const answerSchema = z.object({ text: z.string() })

export function transcriptionService(home: string): TranscriptionService | null {
  const { values, problems } = liveSettings(home)
  if (problems[0] !== undefined) throw invalid(problems[0])
  if (values.transcriptionUrl === null) return null
  return { url: values.transcriptionUrl, key: values.transcriptionKey, model: values.transcriptionModel }
}

/** The words of the audio file at `path`; throws an Error saying, in a line, why there are none. */
export async function transcribe(service: TranscriptionService, path: string, type: string): Promise<string> {
  return transcribeBytes(service, await readFile(path), basename(path), type)
}

/** The words of a recording's bytes, named `name` to the service; throws as transcribe does. */
export async function transcribeBytes(
  service: TranscriptionService,
  bytes: Uint8Array,
  name: string,
  type: string,
): Promise<string> {
  const form = new FormData()
  form.set('file', new Blob([bytes], { type }), name)
  form.set('model', service.model)
  form.set('response_format', 'json')
  let response: Response
  try {
    response = await fetch(service.url, {
      method: 'POST',
      body: form,
      headers: service.key ? { authorization: `Bearer ${service.key}` } : {},
      signal: AbortSignal.timeout(TRANSCRIBE_TIMEOUT_MS),
    })
  } catch (err) {
    throw new Error(`the speech-to-text service did not answer (${(err as Error).message})`)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new Error(`the speech-to-text service answered HTTP ${response.status}`)
  }
  const parsed = answerSchema.safeParse(await response.json().catch(() => null))
  if (!parsed.success) throw new Error('the speech-to-text service answered no text')
  const text = parsed.data.text.trim()
  if (!text) throw new Error('the speech-to-text service heard no words')
  return text
}
