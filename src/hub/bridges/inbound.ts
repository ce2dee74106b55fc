// A message from a chat platform: gated by who wrote it (the platform's user id, never the chat),
// answered with a pairing code when a stranger writes, and otherwise published as an event on
// `chat:<platform>:<chat id>` — or taken as a verdict (`yes abcde`) or a command (`/sessions`).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Meta } from '../../core/event.js'
import { parseVerdictText } from '../../core/hub-protocol.js'
import { newId } from '../../core/ids.js'
import type { InboundAttachment, InboundMessage } from '../../sources/chat/platform.js'
import type { Sender } from '../../store/store.js'
import { runCommand } from './commands.js'
import { type BridgeContext, chatSourceOf, groupSenderNameOf, senderNameOf } from './context.js'
import { PROMPT_KINDS } from './prompts.js'

/** Replies a stranger gets to one pairing code: the code, then a reminder, then silence. */
const MAX_PAIRING_REPLIES = 2
const MAX_REMEMBERED_ATTACHMENTS = 1000
const NOTICE_EVERY_MS = 60 * 60 * 1000

export class Inbound {
  /** Replies a stranger had, by pairing code, or by user id while no code could be given. */
  private readonly pairingReplies = new Map<string, number>()
  /** When each chat was last told no session takes it: once an hour is enough. */
  private readonly noticed = new Map<string, number>()

  constructor(private readonly context: BridgeContext) {}

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
    if (message.text.startsWith('/') && (await runCommand(this.context, message, sender, chat.id))) return
    await this.publish(message, sender.name, chat.id)
  }

  /** A group the bridge was added to: anyone in it may write, when they mention the bot if it must. */
  private async fromGroup(message: InboundMessage): Promise<void> {
    const group = this.context.config().groups.find((g) => g.id === message.chatId)
    if (!group || (group.requireMention && !message.mentioned)) return
    const { store } = this.context.hub
    const name = groupSenderNameOf(this.context.platform, message.chatId)
    const member = await store.senderByName(senderNameOf(this.context.platform, message.userId))
    if (member?.status === 'blocked') return
    let groupSender = await store.senderByName(name)
    if (!groupSender)
      groupSender = await store.addSender({
        name,
        tokenHash: `group:${newId('tok')}`, // a group has no token: nothing authenticates as it
        status: 'allowed',
        operator: false,
        displayName: `group ${message.chatId}`,
      })
    if (groupSender.status !== 'allowed') return // `switchboard access block <platform>:group:<id>`
    const chat = await store.chatFor(chatSourceOf(this.context.platform, message.chatId), groupSender.id)
    this.acknowledge(message)
    await this.publish(message, senderNameOf(this.context.platform, message.userId), chat.id)
  }

  private noticeDue(chatId: string, now = Date.now()): boolean {
    const last = this.noticed.get(chatId)
    if (last !== undefined && now - last < NOTICE_EVERY_MS) return false
    this.noticed.set(chatId, now)
    return true
  }

  private acknowledge(message: InboundMessage): void {
    const adapter = this.context.adapter()
    if (!adapter) return
    const quietly = (p: Promise<unknown>) =>
      p.catch((err) =>
        this.context.log.debug({ err: (err as Error).message }, 'typing or reaction not shown'),
      )
    quietly(adapter.typing(message.chatId))
    const emoji = this.context.config().ackReaction
    if (emoji) quietly(adapter.react(message.chatId, message.messageId, emoji))
  }

  private async publish(message: InboundMessage, senderName: string, chatId: string): Promise<void> {
    const { hub, platform } = this.context
    const meta: Meta = {
      message_id: message.messageId,
      user: message.userName,
      user_id: message.userId,
      ts: message.ts,
      ...(await this.attachmentMeta(message)),
    }
    let target = this.context.routes.get(chatId) ?? null
    if (target && !(await hub.store.hasSubscriber(target))) {
      this.context.routes.delete(chatId)
      target = null
    }
    const result = await hub.publish({
      topic: `chat:${platform}:${message.chatId}`,
      source: platform,
      sender: senderName,
      chat_id: chatId,
      target,
      content: message.text || (message.attachments.length ? '(attachment)' : '(empty message)'),
      meta,
      idempotencyKey: `${message.chatId}:${message.messageId}`,
    })
    if (
      !result.duplicate &&
      !result.subscribers.length &&
      message.chatType === 'dm' &&
      this.noticeDue(chatId)
    )
      await hub.reply(
        'switchboard',
        chatId,
        'No session takes this chat right now; your messages are kept and go to the next one that does. (/sessions lists them.)',
      )
  }

  /**
   * Photos are downloaded once the sender passed the gate, and only their path is given (in meta, never
   * in content); other files are described, for Claude to fetch with download_attachment.
   */
  private async attachmentMeta(message: InboundMessage): Promise<Meta> {
    const [first, ...rest] = message.attachments
    if (!first) return {}
    const meta: Meta = {}
    if (first.kind === 'photo') {
      const adapter = this.context.adapter()
      if (adapter) {
        try {
          meta.image_path = await adapter.download(first, this.inboxFolder())
        } catch (err) {
          this.context.log.warn({ err: (err as Error).message }, 'photo not downloaded')
        }
      }
    }
    const fileId = this.remember(message.chatId, first)
    Object.assign(meta, {
      attachment_kind: first.kind,
      attachment_file_id: fileId,
      ...(first.size !== null ? { attachment_size: String(first.size) } : {}),
      ...(first.mime ? { attachment_mime: first.mime } : {}),
      ...(first.name ? { attachment_name: first.name } : {}),
    })
    if (rest.length) {
      meta.attachment_count = String(message.attachments.length)
      meta.attachments = message.attachments
        .map((a) => `${a.name ?? a.kind} (${a.mime ?? a.kind}, ${Math.ceil((a.size ?? 0) / 1024)} KB)`)
        .join('; ')
      for (const a of rest) this.remember(message.chatId, a)
    }
    return meta
  }

  private remember(chatId: string, attachment: InboundAttachment): string {
    const fileId = newId('file')
    const { attachments } = this.context
    attachments.set(fileId, { chatId, attachment })
    if (attachments.size > MAX_REMEMBERED_ATTACHMENTS) {
      const oldest = attachments.keys().next().value
      if (oldest) attachments.delete(oldest)
    }
    return fileId
  }

  inboxFolder(): string {
    const folder = join(this.context.home, 'inbox', this.context.platform)
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    return folder
  }

  /**
   * `yes abcde` / `no abcde` naming an open prompt: an operator answering it by text. True when it
   * was one; "no thank" or "yes cheers" name no prompt and go to Claude like any message.
   */
  private async verdict(message: InboundMessage, sender: Sender): Promise<boolean> {
    const verdict = parseVerdictText(message.text)
    if (!verdict) return false
    const { hub } = this.context
    const now = Date.now()
    const open = (
      await Promise.all(PROMPT_KINDS.map((kind) => hub.store.openDecisionsByCode(kind, verdict.code, now)))
    ).flat()
    const [decision] = open
    if (!decision) return false
    const say = (text: string) => this.sayTo(message.chatId, text)
    if (!sender.operator) {
      await say('Only operators may answer prompts (switchboard pair <code> --operator).')
      return true
    }
    if (open.length > 1) {
      await say(`"${verdict.code}" is open in several sessions; use the buttons`)
      return true
    }
    const by = `${sender.displayName ?? sender.name} (${this.context.platform})`
    const answer =
      verdict.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: `Denied by ${by}` }
    await hub.decisions
      .answer(decision, answer, by)
      .catch(() => say(`"${verdict.code}" was answered already.`))
    return true
  }

  private async offerPairing(message: InboundMessage): Promise<void> {
    const pairing = await this.context.hub.access.requestChatPairing({
      platform: this.context.platform,
      userId: message.userId,
      userName: message.userName,
      chatId: message.chatId,
    })
    if (!pairing) {
      const told = this.pairingReplies.get(message.userId) ?? 0
      if (told >= MAX_PAIRING_REPLIES) return
      this.pairingReplies.set(message.userId, told + 1)
      await this.sayTo(message.chatId, 'Too many pairing requests are waiting; try again in an hour.')
      return
    }
    this.pairingReplies.set(pairing.code, 1)
    this.context.log.info({ platform: this.context.platform, user: message.userId }, 'pairing requested')
    await this.sayTo(message.chatId, pairingText(pairing.code))
  }

  private async remindPairing(message: InboundMessage, sender: Sender): Promise<void> {
    const [pending] = (await this.context.hub.access.pendingPairings()).filter((d) => d.owner === sender.id)
    if (!pending) return
    const replies = this.pairingReplies.get(pending.code) ?? 1
    if (replies >= MAX_PAIRING_REPLIES) return
    this.pairingReplies.set(pending.code, replies + 1)
    await this.sayTo(message.chatId, pairingText(pending.code))
  }

  /** A short answer from the bridge itself, not stored: it only makes sense now. */
  private async sayTo(chatId: string, text: string): Promise<void> {
    try {
      await this.context.adapter()?.send(chatId, { text })
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
