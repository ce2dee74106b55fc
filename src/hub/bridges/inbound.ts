// A message from a chat platform: gated by who wrote it (the platform's user id, never the chat),
// answered with a pairing code when a stranger writes, and otherwise published as an event on
// `chat:<platform>:<chat id>` — or taken as a verdict (`yes abcde`) or a command (`/sessions`).
import type { Meta } from '../../core/event.js'
import { parseVerdictText } from '../../core/hub-protocol.js'
import { newId } from '../../core/ids.js'
import {
  type ChatFile,
  chatFileLimits,
  describeFiles,
  fetchChatFile,
  inboxFolder,
  shownName,
} from '../../sources/chat/inbox.js'
import type { ButtonPress, InboundAttachment, InboundMessage } from '../../sources/chat/platform.js'
import { transcriptionService } from '../../sources/chat/transcription.js'
import type { Sender } from '../../store/store.js'
import { runCommand } from './commands.js'
import { type BridgeContext, chatSourceOf, senderNameOf } from './context.js'
import { groupSender } from './threads.js'
import { answerFromChat, answerTypedInChat, openPrompts, parseAnswerText, whyClosed } from './verdicts.js'
import { VoiceNotes, type VoiceRoute } from './voice.js'

/** Replies a stranger gets to one pairing code: the code, then a reminder, then silence. */
const MAX_PAIRING_REPLIES = 2
/** A chat is told no session takes it once an hour at most. */
const NOTICE_EVERY_MS = 60 * 60 * 1000

/** A file fetched, with what the platform said of it. */
type TakenFile = ChatFile & { attachment: InboundAttachment }

export class Inbound {
  private readonly voice: VoiceNotes

  constructor(private readonly context: BridgeContext) {
    this.voice = new VoiceNotes(
      context,
      (message, route, taken) => this.publish(message, route.senderName, route.chatId, route.session, taken),
      (to, text) => this.sayTo(to, text),
    )
  }

  /** A press on a voice note's transcript (Send, Edit, Cancel). */
  voicePress(press: ButtonPress, answer: (notice?: string) => Promise<unknown>): Promise<void> {
    return this.voice.pressed(press, answer)
  }

  async take(message: InboundMessage): Promise<void> {
    const { config } = this.context
    if (config().policy === 'disabled') return
    if (message.chatType === 'group') return this.fromGroup(message)
    const { store } = this.context.hub
    const sender = await store.senderByName(senderNameOf(this.context.platform, message.userId))
    if (!sender) {
      if (config().policy === 'pairing') return this.offerPairing(message)
      this.context.log.info({ user: message.userId }, 'message from a stranger ignored (policy allowlist)')
      return
    }
    if (sender.status === 'pending') return this.remindPairing(message, sender)
    if (sender.status !== 'allowed') return
    if (sender.displayName !== message.userName)
      await store.updateSender(sender.id, { displayName: message.userName })
    const chat = await store.chatFor(chatSourceOf(this.context.platform, message.chatId), sender.id)
    this.acknowledge(message)
    if (await this.verdict(message, sender)) return
    if (await this.typedAnswer(message, sender)) return
    if (message.text.startsWith('/') && (await runCommand(this.context, message, sender, chat.id))) return
    await this.publish(message, sender.name, chat.id)
  }

  /** A group the bridge was added to: anyone in it may write, when they mention the bot if it must. */
  private async fromGroup(message: InboundMessage): Promise<void> {
    const group = this.context.config().groups.find((g) => g.id === message.chatId)
    if (!group) return
    // A session's own thread is a conversation with that session: no mention needed there. Any
    // other thread (a forum topic, a Discord or Slack thread a member opened) is the group's, and
    // its rule holds.
    const session =
      group.topics && message.thread !== undefined
        ? await this.context.threads.sessionOf(message.chatId, message.thread)
        : null
    // A command in the main chat of the group with topics (`/new`, `/sessions`) needs no mention: the
    // bot sees commands, and the main chat is where sessions are started. Only people let in run one.
    const command = group.topics && !session && message.text.startsWith('/')
    const addressed = message.mentioned || session !== null || !group.requireMention
    if (!addressed && !command) return
    const { store } = this.context.hub
    const member = await store.senderByName(senderNameOf(this.context.platform, message.userId))
    if (member?.status === 'blocked') return
    if (!addressed && member?.status !== 'allowed') return
    const sender = await groupSender(this.context, message.chatId)
    if (sender.status !== 'allowed') return // `switchboard access block <platform>:group:<id>`
    const chat = await store.chatFor(chatSourceOf(this.context.platform, message.chatId), sender.id)
    this.acknowledge(message)
    // The group with topics is the phone's place for sessions: people let in answer prompts and
    // give commands there as in a DM, each answered where it was written.
    if (group.topics && member?.status === 'allowed') {
      if (await this.verdict(message, member)) return
      if (await this.typedAnswer(message, member)) return
      const say = (text: string) => this.sayTo(message, text)
      if (message.text.startsWith('/') && (await runCommand(this.context, message, member, chat.id, say)))
        return
    }
    // A command it does not know, written without a mention, is not a message for sessions.
    if (!addressed) return
    if (session && !(await store.hasSubscriber(session)))
      return this.sayTo(message, `${session} is gone: nothing takes this thread any more.`)
    // Claude reacts to it by the group's chat and its id: where it is must be known then.
    const place = this.chatOf(message)
    if (place !== message.chatId)
      await this.context.memory.setMessagePlace(message.chatId, message.messageId, place)
    await this.publish(message, senderNameOf(this.context.platform, message.userId), chat.id, session)
    if (session) await this.sayWhenItArrives(message, session)
  }

  /**
   * A session at a terminal with hooks only takes what is written to it with its next prompt or tool
   * call (no hook can start a turn): the thread is told so, once an hour at most.
   */
  private async sayWhenItArrives(message: InboundMessage, session: string): Promise<void> {
    const { kind, name } = await this.context.hub.directory.describe(session)
    if (kind !== 'terminal') return
    if (!(await this.context.memory.noticeDue(`thread:${session}`, NOTICE_EVERY_MS))) return
    await this.sayTo(
      message,
      `Kept for ${name}: it reaches the session with its next prompt or tool call (a session without the channel starts no turn from outside).`,
    )
  }

  private acknowledge(message: InboundMessage): void {
    const adapter = this.context.adapter()
    if (!adapter) return
    const quietly = (p: Promise<unknown>) =>
      p.catch((err) =>
        this.context.log.debug({ err: (err as Error).message }, 'typing or reaction not shown'),
      )
    quietly(adapter.typing(message.chatId, message.thread))
    const emoji = this.context.config().ackReaction
    if (emoji) quietly(adapter.react(this.chatOf(message), message.messageId, emoji))
  }

  /** Where a message is reacted to: its thread's own chat on Discord. */
  private chatOf(message: InboundMessage): string {
    const threads = this.context.adapter()?.threads
    return message.thread && threads ? threads.chatOf(message.chatId, message.thread) : message.chatId
  }

  /**
   * `session`: the one whose thread it was written in, which alone gets it. `taken`: files fetched
   * already, and the words to send (a voice note's transcript its sender confirmed).
   */
  private async publish(
    message: InboundMessage,
    senderName: string,
    chatId: string,
    session: string | null = null,
    taken?: { files: ChatFile[]; text: string },
  ): Promise<void> {
    const { hub, platform } = this.context
    let target = session ?? (await this.context.memory.route(chatId))
    if (target && !session && !(await hub.store.hasSubscriber(target))) {
      await this.context.memory.setRoute(chatId, null)
      target = null
    }
    let files: { kept: ChatFile[]; refused: string[] } = { kept: taken?.files ?? [], refused: [] }
    if (!taken) {
      const fetched = await this.fetchFiles(message, target)
      files = fetched
      if (files.refused.length) await this.sayTo(message, files.refused.join('\n'))
      const voice = fetched.kept.find((f) => f.attachment.kind === 'voice')
      if (voice && (await this.offerTranscript(message, { senderName, chatId, session }, voice))) return
      // Every file refused and no words: the sender was told why, and the session has nothing to read.
      if (!message.text && message.attachments.length && !files.kept.length) return
    }
    const meta: Meta = {
      message_id: message.messageId,
      user: message.userName,
      user_id: message.userId,
      ts: message.ts,
      ...(await this.filesMeta(message, files.kept, files.refused)),
      ...(taken ? { transcribed: 'a voice note, its transcript confirmed by its sender' } : {}),
    }
    const result = await hub.publish({
      topic: `chat:${platform}:${message.chatId}`,
      source: platform,
      sender: senderName,
      chat_id: chatId,
      target,
      content:
        taken?.text || message.text || (message.attachments.length ? '(attachment)' : '(empty message)'),
      meta,
      idempotencyKey: `${message.chatId}:${message.messageId}`,
    })
    if (
      !result.duplicate &&
      !result.subscribers.length &&
      message.chatType === 'dm' &&
      (await this.context.memory.noticeDue(chatId, NOTICE_EVERY_MS))
    )
      await hub.reply(
        'switchboard',
        chatId,
        'No session takes this chat right now; your messages are kept and go to the next one that does. (/sessions lists them.)',
      )
  }

  /**
   * A voice note, with a speech-to-text service configured, goes to its sender as a transcript to
   * confirm (voice.ts): true when it did. Without one its sender is told it goes as a file.
   */
  private async offerTranscript(
    message: InboundMessage,
    route: VoiceRoute,
    voice: TakenFile,
  ): Promise<boolean> {
    const service = transcriptionService(this.context.home)
    if (service) return this.voice.offer(message, route, voice, service)
    if (await this.context.memory.noticeDue(`voice:${message.chatId}`, NOTICE_EVERY_MS))
      await this.sayTo(
        message,
        'Your voice note goes to the session as an audio file: no speech-to-text service is configured (transcriptionUrl in config.json).',
      )
    return false
  }

  /**
   * The message's files, fetched once the sender passed the gate into the inbox of the session it
   * goes to (`owner`; the platform's folder when it goes to whichever session takes the chat). A file
   * refused or not fetched is in `refused`, in words for its sender.
   */
  private async fetchFiles(
    message: InboundMessage,
    owner: string | null,
  ): Promise<{ kept: TakenFile[]; refused: string[] }> {
    if (!message.attachments.length) return { kept: [], refused: [] }
    const adapter = this.context.adapter()
    const limits = chatFileLimits(this.context.home)
    const folder = this.inboxFolder(owner)
    const kept: TakenFile[] = []
    const refused: string[] = []
    for (const attachment of message.attachments) {
      try {
        if (!adapter)
          throw new Error(
            `${shownName(attachment)} was not fetched: the bridge is reconnecting; send it again.`,
          )
        kept.push({ ...(await fetchChatFile(adapter, attachment, folder, limits)), attachment })
      } catch (err) {
        refused.push((err as Error).message)
      }
    }
    return { kept, refused }
  }

  /**
   * Files are named to Claude by path, type and size in meta (never in content); what was refused is
   * said to the session as files_refused too: nothing is dropped silently.
   */
  private async filesMeta(message: InboundMessage, kept: ChatFile[], refused: string[]): Promise<Meta> {
    const meta: Meta = {}
    if (kept.length) meta.files = describeFiles(kept)
    const image = kept.find((f) => f.type.startsWith('image/'))
    if (image) meta.image_path = image.path
    if (refused.length) meta.files_refused = refused.join(' ')
    const [first, ...rest] = message.attachments
    if (!first) return meta
    // Ids for download_attachment, as the official plugins give them.
    const fileId = await this.remember(message.chatId, first)
    Object.assign(meta, {
      attachment_kind: first.kind,
      attachment_file_id: fileId,
      ...(first.size !== null ? { attachment_size: String(first.size) } : {}),
      ...(first.mime ? { attachment_mime: first.mime } : {}),
      ...(first.name ? { attachment_name: first.name } : {}),
    })
    if (rest.length) {
      meta.attachment_count = String(message.attachments.length)
      for (const a of rest) await this.remember(message.chatId, a)
    }
    return meta
  }

  private async remember(chatId: string, attachment: InboundAttachment): Promise<string> {
    const fileId = newId('file')
    await this.context.memory.addAttachment(fileId, chatId, attachment)
    return fileId
  }

  /** A session's folder of the inbox; the platform's for a chat no one session takes. */
  inboxFolder(owner: string | null = null): string {
    return inboxFolder(this.context.home, owner ?? this.context.platform)
  }

  /**
   * `yes abcde` / `no abcde` naming a prompt: an operator answering it by text, told how it went.
   * True when it was one; "no thank" or "yes cheers" name no prompt and go to Claude like any message.
   */
  private async verdict(message: InboundMessage, sender: Sender): Promise<boolean> {
    const verdict = parseVerdictText(message.text)
    if (!verdict) return false
    const say = (text: string) => this.sayTo(message, text)
    const open = (await openPrompts(this.context, verdict.code)).length > 0
    if (!sender.operator) {
      if (!open) return false
      await say('Only operators may answer prompts (switchboard pair <code> --operator).')
      return true
    }
    // A code this operator was never shown, and not open: words, not a verdict.
    if (!open && (await whyClosed(this.context, sender, verdict.code)) === null) return false
    await say(await answerFromChat(this.context, sender, verdict.code, verdict.behavior, null))
    return true
  }

  /** `answer abcde 2 "port 9000"` naming an open prompt: an operator answering it by text. */
  private async typedAnswer(message: InboundMessage, sender: Sender): Promise<boolean> {
    const typed = parseAnswerText(message.text)
    if (!typed || !sender.operator) return false
    // A code that names no prompt this operator has seen: words for Claude.
    const open = (await openPrompts(this.context, typed.code)).length > 0
    if (!open && (await whyClosed(this.context, sender, typed.code)) === null) return false
    const said = await answerTypedInChat(this.context, sender, typed.code, typed.values)
    await this.sayTo(message, said)
    return true
  }

  private async offerPairing(message: InboundMessage): Promise<void> {
    const { memory, platform } = this.context
    const pairing = await this.context.hub.access.requestChatPairing({
      platform,
      userId: message.userId,
      userName: message.userName,
      chatId: message.chatId,
    })
    if (!pairing) {
      if (!(await memory.mayReply(`user:${message.userId}`, MAX_PAIRING_REPLIES))) return
      await this.sayTo(
        message,
        `Too many pairing requests are waiting here; try again in an hour. The operator can also let you in with:\n\nswitchboard access allow ${senderNameOf(platform, message.userId)}`,
      )
      return
    }
    await memory.mayReply(pairing.code, MAX_PAIRING_REPLIES) // the code itself is the first reply
    this.context.log.info({ platform, user: message.userId }, 'pairing requested')
    await this.sayTo(message, pairingText(pairing.code))
  }

  private async remindPairing(message: InboundMessage, sender: Sender): Promise<void> {
    const [pending] = (await this.context.hub.access.pendingPairings()).filter((d) => d.owner === sender.id)
    if (!pending || !(await this.context.memory.mayReply(pending.code, MAX_PAIRING_REPLIES))) return
    await this.sayTo(message, pairingText(pending.code))
  }

  /** A short answer from the bridge itself, not stored (it only makes sense now), where `to` was written. */
  private async sayTo(to: InboundMessage, text: string): Promise<void> {
    try {
      await this.context.adapter()?.send(to.chatId, { text, ...(to.thread ? { thread: to.thread } : {}) })
    } catch (err) {
      this.context.log.warn({ err: (err as Error).message }, 'bridge notice not sent')
    }
  }
}

function pairingText(code: string): string {
  return (
    `Switchboard: to let your messages reach Claude, ask the operator to run\n\n` +
    `switchboard pair ${code}\n\nThe code works for one hour.`
  )
}
