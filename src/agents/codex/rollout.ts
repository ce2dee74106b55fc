// Codex's own record of a thread, its rollout file (shared/AGENTS.md §1d): what proves that a message
// the hub sent is in the model's context. Codex writes a user message there twice: as the
// `response_item` the model is sent (its text, and the turn it joined), and as an `event_msg`
// `item_completed` UserMessage that carries the client's id for it (turn/start's
// clientUserMessageId). A message is in context once both are there, in the same turn with the
// same text: the event says whose message it is, the response_item that the model reads it. Neither
// alone is enough, and an app-server notification never is: it says what Codex meant to do.
import { open } from 'node:fs/promises'
import * as z from 'zod'
import { NdjsonReader } from '../../claude/ndjson.js'

const textOf = (content: { text?: string | undefined }[]) => content.map((c) => c.text ?? '').join('')

const partsSchema = z.array(z.object({ text: z.string().optional().catch(undefined) }).passthrough())

/** A user message as sent to the model. */
const modelInputSchema = z.object({
  type: z.literal('response_item'),
  payload: z.object({
    type: z.literal('message'),
    role: z.literal('user'),
    content: partsSchema,
    internal_chat_message_metadata_passthrough: z.object({ turn_id: z.string() }).passthrough(),
  }),
})

/** The same message as Codex's event, with the client's id for it. */
const userEventSchema = z.object({
  type: z.literal('event_msg'),
  payload: z.object({
    type: z.literal('item_completed'),
    turn_id: z.string(),
    item: z.object({
      type: z.literal('UserMessage'),
      client_id: z.string().min(1),
      content: partsSchema,
    }),
  }),
})

/** Neither kind of line stands for itself: a key pairs the two forms of one message. */
const keyOf = (turnId: string, text: string) => `${turnId}\n${text}`

/**
 * What the rollout's lines say, however they are read: fed the file's bytes in order, it calls
 * `inContext` with the client id of each message once both its forms were read.
 */
export class RolloutReading {
  private readonly reader: NdjsonReader<unknown>
  /** Model inputs not yet paired with an event, by key: how many. */
  private readonly inputs = new Map<string, number>()
  /** Events whose model input was not read yet (an order Codex has not been seen to write), by key. */
  private readonly events = new Map<string, string[]>()

  constructor(private readonly inContext: (clientId: string) => void) {
    // Codex's own lines: a line of another kind, or one that is not JSON, is simply not a message.
    this.reader = new NdjsonReader(
      (value) => ({ ok: true, value }),
      (line) => this.line(line),
    )
  }

  take(chunk: Buffer): void {
    this.reader.push(chunk)
  }

  private line(line: unknown): void {
    const input = modelInputSchema.safeParse(line)
    if (input.success) {
      const { payload } = input.data
      const key = keyOf(payload.internal_chat_message_metadata_passthrough.turn_id, textOf(payload.content))
      const waiting = this.events.get(key)
      const clientId = waiting?.shift()
      if (waiting?.length === 0) this.events.delete(key)
      if (clientId !== undefined) this.inContext(clientId)
      else this.inputs.set(key, (this.inputs.get(key) ?? 0) + 1)
      return
    }
    const event = userEventSchema.safeParse(line)
    if (!event.success) return
    const { turn_id, item } = event.data.payload
    const key = keyOf(turn_id, textOf(item.content))
    const inputs = this.inputs.get(key) ?? 0
    if (inputs > 0) {
      if (inputs === 1) this.inputs.delete(key)
      else this.inputs.set(key, inputs - 1)
      this.inContext(item.client_id)
    } else this.events.set(key, [...(this.events.get(key) ?? []), item.client_id])
  }
}

/**
 * A thread's rollout file as Codex appends to it, read on from where the last look ended. `begin`
 * takes its end as it is when the thread opens: a resumed thread's earlier lines are of no interest.
 */
export class RolloutFile {
  private readonly reading: RolloutReading
  private offset = 0
  /** One look at a time: two would read the same bytes twice. */
  private looking: Promise<void> = Promise.resolve()

  constructor(
    readonly path: string,
    inContext: (clientId: string) => void,
  ) {
    this.reading = new RolloutReading(inContext)
  }

  async begin(): Promise<void> {
    this.offset = (await this.size()) ?? 0
  }

  /** Reads what Codex added since the last look. A file not there yet is read from its start later. */
  look(): Promise<void> {
    this.looking = this.looking.then(() => this.read()).catch(() => {})
    return this.looking
  }

  private async read(): Promise<void> {
    const handle = await open(this.path, 'r').catch(() => null)
    if (!handle) return
    try {
      const { size } = await handle.stat()
      const buffer = Buffer.alloc(1 << 16)
      while (this.offset < size) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset)
        if (bytesRead <= 0) break
        this.offset += bytesRead
        // A copy: the reader keeps an unfinished line's bytes, and the buffer is read into again.
        this.reading.take(Buffer.from(buffer.subarray(0, bytesRead)))
      }
    } finally {
      await handle.close()
    }
  }

  private async size(): Promise<number | null> {
    const handle = await open(this.path, 'r').catch(() => null)
    if (!handle) return null
    try {
      return (await handle.stat()).size
    } finally {
      await handle.close()
    }
  }
}
