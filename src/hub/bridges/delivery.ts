// What a bridge's people get from the hub, shown on the platform in the order it was stored: replies
// (cut to the platform's limit), prompts with buttons, prompts edited once answered, "Paired".
// Nothing is dropped while the platform is down or rate-limited: an item is marked shown only once
// the platform took it; until then it is retried with backoff (or after the platform's retry_after).

import { isPrompt, isPromptKind, type MessageOf } from '../../core/outbox.js'
import { escapeMarkdown } from '../../sources/chat/markdown.js'
import { type OutgoingMessage, PlatformError } from '../../sources/chat/platform.js'
import type { OutboxItem, Sender } from '../../store/store.js'
import { type BridgeContext, groupSenderNameOf, platformChatOf, textLimit } from './context.js'
import { oneMessage, withLine } from './formatting.js'
import { outcomeLine, promptMessage } from './prompts.js'
import { FileRefused, readReplyFiles } from './reply-files.js'

/** Who the bridge's own answers (commands, notices) are from: never a session, so never in a thread. */
const HUB_ITSELF = 'switchboard'

const FIRST_RETRY_MS = 1000
const MAX_RETRY_MS = 30_000

type Receipt = Record<string, unknown>

export class Delivery {
  /** Per sender, the delivery under way: items go out one at a time, in order. */
  private readonly chains = new Map<string, Promise<boolean>>()
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; delayMs: number }>()
  /** Chunks of a long reply the platform took already, so a retry sends only the rest. */
  private readonly partial = new Map<number, string[]>()
  private readonly dmChats = new Map<string, string>()
  private stopped = false

  constructor(private readonly context: BridgeContext) {}

  /** Senders with something waiting for a retry. */
  get waiting(): number {
    return this.retries.size
  }

  /** Delivers what waits for this sender; resolves true when all of it went out. */
  flush(senderId: string): Promise<boolean> {
    const previous = this.chains.get(senderId) ?? Promise.resolve(true)
    const run = previous.then(() => this.deliverWaiting(senderId))
    const kept = run.catch((err) => {
      this.context.log.error({ err, senderId }, 'bridge delivery failed')
      return false
    })
    this.chains.set(senderId, kept)
    void kept.then(() => {
      if (this.chains.get(senderId) === kept) this.chains.delete(senderId)
    })
    return kept
  }

  /** The platform is back: every waiting sender is tried now rather than at its next backoff. */
  retryNow(): void {
    for (const [senderId, retry] of this.retries) {
      clearTimeout(retry.timer)
      this.retries.delete(senderId)
      void this.flush(senderId)
    }
  }

  stop(): void {
    this.stopped = true
    for (const retry of this.retries.values()) clearTimeout(retry.timer)
    this.retries.clear()
  }

  private async deliverWaiting(senderId: string): Promise<boolean> {
    if (this.stopped || this.retries.has(senderId)) return false
    const { store, outbox } = this.context.hub
    const sender = await store.senderById(senderId)
    if (!sender) return true
    for (const item of await outbox.items(senderId, null)) {
      if (this.stopped) return false
      try {
        const receipt = await this.show(sender, item)
        await store.markShown(item.id, receipt)
        this.partial.delete(item.id)
      } catch (err) {
        if (err instanceof FileRefused) {
          this.context.log.warn(
            { item: item.id, err: err.message },
            'a reply was not sent: its file may not leave',
          )
          await store.markShown(item.id, { notSent: `not sent: ${err.message}` })
          this.partial.delete(item.id)
          continue
        }
        // A refused token is the bridge's failure, not the item's: it waits for the token to be fixed.
        if (err instanceof PlatformError && err.options.permanent && !err.options.tokenRefused) {
          this.context.log.warn(
            { item: item.id, kind: item.kind, err: err.message },
            'the platform refused an item',
          )
          await store.markShown(item.id, { refused: err.message })
          this.partial.delete(item.id)
          continue
        }
        this.retryLater(senderId, err)
        return false
      }
    }
    return true
  }

  private retryLater(senderId: string, err: unknown): void {
    const previous = this.retries.get(senderId)?.delayMs ?? 0
    const asked = err instanceof PlatformError ? err.options.retryAfterMs : undefined
    const delayMs = asked ?? Math.min(previous ? previous * 2 : FIRST_RETRY_MS, MAX_RETRY_MS)
    this.context.log.info(
      { senderId, delayMs, err: (err as Error).message },
      'platform unavailable; retrying',
    )
    const timer = setTimeout(() => {
      this.retries.delete(senderId)
      void this.flush(senderId)
    }, delayMs)
    timer.unref()
    this.retries.set(senderId, { timer, delayMs })
  }

  private adapter() {
    const adapter = this.context.adapter()
    if (!adapter) throw new PlatformError(`${this.context.platform} is not connected`)
    return adapter
  }

  private async show(sender: Sender, item: OutboxItem): Promise<Receipt> {
    if (item.kind === 'reply') return this.showReply(sender, item)
    if (item.kind === 'paired') {
      this.context.log.info({ sender: sender.name, operator: item.body.operator }, 'paired: telling them')
      const chat = await this.dmOf(sender)
      return { chat, messages: [await this.adapter().send(chat, { text: item.body.text })] }
    }
    if (isPrompt(item)) {
      const { body } = item
      const { text, buttons } = promptMessage(item.kind, body)
      const adapter = this.adapter()
      const shown = oneMessage(adapter, text, textLimit(this.context))
      const inThread = await this.inThread(body.session, `prompt:${body.id}`, (thread) => ({
        ...shown,
        buttons,
        thread,
      }))
      if (inThread) return { ...inThread, text }
      const chat = await this.dmOf(sender)
      const message = await adapter.send(chat, { ...shown, buttons })
      // The prompt's markdown: its outcome is added under it (showOutcome).
      return { chat, messages: [message], text }
    }
    if (item.kind === 'decision') return this.showOutcome(sender, item)
    if (item.kind === 'notice') {
      // Something operators must hear of (a session at a terminal waits or finished; an event not
      // confirmed in a session's context): its line, no buttons.
      const { body } = item
      const text = cut(body.text, textLimit(this.context))
      const copy = `notice:${body.session}:${body.id ?? body.event ?? ''}:${body.at ?? item.id}`
      const inThread = await this.inThread(body.session, copy, (thread) => ({ text, thread }))
      if (inThread) return inThread
      const chat = await this.dmOf(sender)
      return { chat, messages: [await this.adapter().send(chat, { text })] }
    }
    // The one kind left (core/outbox.ts): a session's thread ends.
    return this.context.threads.close(item.body.session, item.body.text)
  }

  /**
   * An item about a session, sent once into the session's thread however many operators it is for;
   * null when there is no thread for it (no group with topics): it goes to each operator's DM.
   */
  private async inThread(
    session: unknown,
    copy: string,
    message: (thread: string) => OutgoingMessage,
  ): Promise<Receipt | null> {
    const { threads } = this.context
    if (typeof session !== 'string' || !session || !threads.group()) return null
    const thread = await threads.of(session)
    if (!thread) return null
    return threads.copy(copy, async () => ({
      chat: threads.chatOf(thread),
      messages: [await this.adapter().send(thread.chat, message(thread.thread))],
      thread: thread.thread,
    }))
  }

  private async showReply(sender: Sender, item: MessageOf<'reply'> & OutboxItem): Promise<Receipt> {
    const { body } = item
    const chatRecord = await this.context.hub.store.getChat(body.chat_id)
    const chat = chatRecord ? platformChatOf(this.context.platform, chatRecord.source) : null
    if (!chat)
      throw new PlatformError(`chat ${body.chat_id} is not a ${this.context.platform} chat`, {
        permanent: true,
      })
    if (sender.name === groupSenderNameOf(this.context.platform, chat)) {
      if (!this.context.config().groups.some((g) => g.id === chat))
        throw new PlatformError(`group ${chat} is no longer added to the bridge`, { permanent: true })
    }
    // Read (and checked again) before any part goes out: a file that may not leave stops the whole reply.
    const files = body.files?.length
      ? await readReplyFiles(body.files, { home: this.context.home, folder: body.folder })
      : []
    // A session's reply to the group with topics goes to its own thread, where it needs no name.
    const thread =
      body.from && body.from !== HUB_ITSELF && chat === this.context.threads.group()
        ? await this.context.threads.of(body.from)
        : null
    // Claude writes markdown: each platform gets it in its own markup, cut where no code block breaks.
    const signer = body.from_name ?? body.from
    const signed = signer && !thread ? sign(escapeMarkdown(signer), body.text) : body.text
    const { chunkMode } = this.context.config()
    const chunks = this.adapter().format(signed, textLimit(this.context), chunkMode)
    const sent = this.partial.get(item.id) ?? []
    for (let i = sent.length; i < chunks.length; i++) {
      const last = i === chunks.length - 1
      const message = {
        ...(chunks[i] as { text: string; markup: string }),
        ...(i === 0 && body.reply_to ? { replyTo: body.reply_to } : {}),
        ...(last && files.length ? { files } : {}),
        ...(thread ? { thread: thread.thread } : {}),
      }
      const id = await this.adapter()
        .send(chat, message)
        .catch((err) => {
          // A reply_to the platform does not know (a wrong id, a deleted message) must not cost the reply.
          if (!(err instanceof PlatformError && err.options.permanent && message.replyTo)) throw err
          const { replyTo: _, ...withoutReplyTo } = message
          return this.adapter().send(chat, withoutReplyTo)
        })
      sent.push(id)
      this.partial.set(item.id, sent)
    }
    if (thread) return { chat: this.context.threads.chatOf(thread), messages: sent, thread: thread.thread }
    return { chat, messages: sent }
  }

  /** Every copy of the prompt this sender was shown now says how it ended and who ended it. */
  private async showOutcome(sender: Sender, item: MessageOf<'decision'> & OutboxItem): Promise<Receipt> {
    const code = item.body.id
    const about = await this.context.hub.outbox.about(sender.id, code)
    const prompt = about.filter((i) => isPromptKind(i.kind) && i.receipt?.messages).at(-1)
    if (!prompt?.receipt) return { skipped: 'no prompt shown' }
    const { chat, messages, text } = prompt.receipt as { chat: string; messages: string[]; text?: string }
    const by = item.body.status === 'cancelled' ? null : (item.body.answered_by ?? 'someone')
    const line = outcomeLine(item.body.answer, by, item.body.reason, item.body.kind)
    const adapter = this.adapter()
    const edited = withLine(adapter, text ?? '', escapeMarkdown(line), textLimit(this.context))
    const edit = async () => {
      for (const message of messages) await adapter.edit(chat, message, edited.text, [], edited.markup)
      return { chat, edited: messages }
    }
    // A prompt in a thread is one message for all operators: edited once.
    return prompt.receipt.thread ? this.context.threads.copy(`outcome:${code}`, edit) : edit()
  }

  /** The DM chat with a bridge sender (`<platform>:<user id>`). */
  private async dmOf(sender: Sender): Promise<string> {
    const userId = sender.name.slice(this.context.platform.length + 1)
    const known = this.dmChats.get(userId)
    if (known) return known
    const chat = await this.adapter().dmChat(userId)
    this.dmChats.set(userId, chat)
    return chat
  }
}

/** `[from]` before a reply; on a line of its own when the reply opens with a heading, a list, a quote or code. */
function sign(from: string, markdown: string): string {
  return /^(?:#{1,6}\s|```|~~~|>|[-*+]\s)/.test(markdown) ? `[${from}]\n${markdown}` : `[${from}] ${markdown}`
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}
