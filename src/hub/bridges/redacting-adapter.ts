// The one way out to a chat platform, redacted: every message, edit and thread title a bridge sends
// (replies, prompts, notices, progress) passes its text through the Redactor first, so a token in a
// tool's input or in Claude's reply never reaches the platform. The markdown is redacted before it is
// formatted (the markup then escapes the replacement like any text); what is sent is redacted again,
// for text that never went through format.
import type { Redactor } from '../../core/redact.js'
import type { PlatformAdapter } from '../../sources/chat/platform.js'

export function redacting(adapter: PlatformAdapter, redactor: Redactor): PlatformAdapter {
  const r = (text: string) => redactor.redact(text)
  const { threads, history } = adapter
  // Every member said, each calling the adapter itself: an adapter may be a class that keeps state on `this`.
  return {
    platform: adapter.platform,
    textLimit: adapter.textLimit,
    start: (handlers) => adapter.start(handlers),
    stop: () => adapter.stop(),
    format: (markdown, limit, mode) => adapter.format(r(markdown), limit, mode),
    send: (chatId, message) =>
      adapter.send(chatId, {
        ...message,
        text: r(message.text),
        ...(message.markup !== undefined ? { markup: r(message.markup) } : {}),
        ...(message.buttons
          ? { buttons: message.buttons.map((row) => row.map((b) => ({ ...b, text: r(b.text) }))) }
          : {}),
      }),
    edit: (chatId, messageId, text, buttons, markup) =>
      adapter.edit(
        chatId,
        messageId,
        r(text),
        buttons?.map((row) => row.map((b) => ({ ...b, text: r(b.text) }))),
        markup === undefined ? undefined : r(markup),
      ),
    react: (chatId, messageId, emoji) => adapter.react(chatId, messageId, emoji),
    typing: (chatId, thread) => adapter.typing(chatId, thread),
    answerPress: (press, notice) => adapter.answerPress(press, notice === undefined ? undefined : r(notice)),
    dmChat: (userId) => adapter.dmChat(userId),
    download: (attachment, toFolder) => adapter.download(attachment, toFolder),
    ...(threads
      ? {
          threads: {
            open: (chatId, title) => threads.open(chatId, r(title)),
            close: (chatId, thread) => threads.close(chatId, thread),
            reopen: (chatId, thread) => threads.reopen(chatId, thread),
            chatOf: (chatId, thread) => threads.chatOf(chatId, thread),
          },
        }
      : {}),
    ...(history
      ? {
          history: (chatId: string, limit: number, thread?: string) =>
            history.call(adapter, chatId, limit, thread),
        }
      : {}),
  }
}
