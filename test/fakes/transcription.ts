// A speech-to-text server on 127.0.0.1 speaking OpenAI's POST /v1/audio/transcriptions: a multipart
// body with the audio file and the model, answered with {"text": …}. The test says what it hears.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LocalServer } from './local-server.js'

export interface TranscriptionRequest {
  model: string | null
  fileName: string | null
  bytes: number
  authorization: string | null
}

export class FakeTranscription extends LocalServer {
  readonly requests: TranscriptionRequest[] = []
  /** What the next notes say, in order; the last is said again. */
  private texts: string[] = ['(silence)']

  get url(): string {
    return `http://127.0.0.1:${this.port}/v1/audio/transcriptions`
  }

  hears(...texts: string[]): void {
    this.texts = texts
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404).end()
      return
    }
    let form: FormData
    try {
      // The body parsed as multipart by the same standard a browser uses.
      form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData()
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'expected multipart/form-data' } }))
      return
    }
    const file = form.get('file')
    if (!(file instanceof Blob)) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'file is required' } }))
      return
    }
    this.requests.push({
      model: typeof form.get('model') === 'string' ? (form.get('model') as string) : null,
      fileName: file instanceof File ? file.name : null,
      bytes: file.size,
      authorization: req.headers.authorization ?? null,
    })
    const text = this.texts.length > 1 ? (this.texts.shift() as string) : (this.texts[0] as string)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ text }))
  }
}
