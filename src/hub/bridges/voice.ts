// Voice notes with a speech-to-text service configured: the note is transcribed and its sender is
// shown the words with Send, Edit and Cancel; only Send passes them (with the note, as a file) to the
// session. Edit sends nothing and gives the words back to copy, so what the sender writes next goes
// as any message does; Cancel sends nothing. The waiting transcript is kept in the store, so a
// restarted hub still takes the press.
import { randomBytes } from 'node:crypto'
import * as z from 'zod'
import type { ChatFile } from '../../sources/chat/inbox.js'
import type { ButtonPress, InboundMessage } from '../../sources/chat/platform.js'
import { type TranscriptionService, transcribe } from '../../sources/chat/transcription.js'
import type { BridgeContext } from './context.js'

const PREFIX = 'voice:'
const VERBS = ['send', 'edit', 'cancel'] as const

/** Where the words go once sent: what Inbound.publish was called with. */
export interface VoiceRoute {
  senderName: string
  chatId: string
  session: string | null
}

const waitingSchema = z.object({
  message: z.object({
    chatId: z.string(),
    chatType: z.enum(['dm', 'group']),
    messageId: z.string(),
    userId: z.string(),
    userName: z.string(),
    ts: z.string(),
    thread: z.string().optional(),
  }),
  route: z.object({ senderName: z.string(), chatId: z.string(), session: z.string().nullable() }),
  text: z.string(),
  file: z.object({ path: z.string(), type: z.string(), size: z.number() }),
})
type Waiting = z.infer<typeof waitingSchema>

export type Publish = (
  message: InboundMessage,
  route: VoiceRoute,
  taken: { files: ChatFile[]; text: string },
) => Promise<void>

export function isVoicePress(data: string): boolean {
  return data.startsWith(PREFIX)
}

export class VoiceNotes {
  constructor(
    private readonly context: BridgeContext,
    private readonly publish: Publish,
    private readonly say: (to: InboundMessage, text: string) => Promise<void>,
  ) {}

  /**
   * Transcribes the note and asks its sender what to do with the words. False when it could not be
   * transcribed: the sender was told why, and the caller passes the note on as a file.
   */
  async offer(
    message: InboundMessage,
    route: VoiceRoute,
    file: ChatFile,
    service: TranscriptionService,
  ): Promise<boolean> {
    const adapter = this.context.adapter()
    let text: string
    try {
      if (!adapter) throw new Error('the bridge is reconnecting')
      text = await transcribe(service, file.path, file.type)
    } catch (err) {
      await this.say(
        message,
        `The voice note was not transcribed (${(err as Error).message}): it goes to the session as an audio file.`,
      )
      return false
    }
    const id = randomBytes(6).toString('hex')
    const waiting: Waiting = {
      message: {
        chatId: message.chatId,
        chatType: message.chatType,
        messageId: message.messageId,
        userId: message.userId,
        userName: message.userName,
        ts: message.ts,
        ...(message.thread ? { thread: message.thread } : {}),
      },
      route,
      text,
      file,
    }
    await this.context.memory.setTranscript(id, waiting)
    await adapter.send(message.chatId, {
      text: `🎙 Your voice note says:\n\n${text}\n\nSend it to the session as it is, edit it, or cancel.`,
      buttons: [VERBS.map((verb) => ({ text: label(verb), data: `${PREFIX}${verb}:${id}` }))],
      replyTo: message.messageId,
      ...(message.thread ? { thread: message.thread } : {}),
    })
    return true
  }

  /** A press on a transcript's buttons, by its sender alone. */
  async pressed(press: ButtonPress, answer: (notice?: string) => Promise<unknown>): Promise<void> {
    const [verb, id] = press.data.slice(PREFIX.length).split(':')
    const waiting = id ? await this.context.memory.transcript(id, waitingSchema) : null
    if (!waiting || !VERBS.includes(verb as (typeof VERBS)[number])) {
      await answer('This transcript was answered already')
      return
    }
    if (waiting.message.userId !== press.userId) {
      await answer('Only who sent the voice note answers its transcript')
      return
    }
    if (!(await this.context.memory.takeTranscript(id as string))) {
      await answer('This transcript was answered already')
      return
    }
    const shown = (text: string) =>
      this.context
        .adapter()
        ?.edit(press.chatId, press.messageId, text, [])
        .catch((err) => this.context.log.debug({ err: (err as Error).message }, 'transcript not edited'))
    if (verb === 'send') {
      const message: InboundMessage = {
        ...waiting.message,
        text: waiting.text,
        mentioned: true,
        attachments: [],
      }
      await this.publish(message, waiting.route, { files: [waiting.file], text: waiting.text })
      await shown(`🎙 Sent to the session:\n\n${waiting.text}`)
      await answer('Sent')
    } else if (verb === 'edit') {
      await shown(
        `🎙 Not sent. Write what the session should read instead; the transcript, to copy:\n\n${waiting.text}`,
      )
      await answer('Write the text to send')
    } else {
      await shown('🎙 Cancelled: nothing was sent to the session.')
      await answer('Cancelled')
    }
  }
}

function label(verb: (typeof VERBS)[number]): string {
  return verb === 'send' ? 'Send' : verb === 'edit' ? 'Edit' : 'Cancel'
}
