// Discord events in the hub's shape: a message becomes an InboundMessage, a button press a ButtonPress;
// everything the bridge decides on (chat kind, sender, mention) is settled here.
import { type Attachment, type ButtonInteraction, ChannelType, type Message, MessageFlags } from 'discord.js'
import type { ButtonPress, InboundAttachment, InboundMessage } from '../chat/platform.js'

/** Null for what no person wrote to the bot: its own messages, other bots', webhooks, system notices. */
export function toInbound(message: Message, botId: string): InboundMessage | null {
  if (message.author.bot || message.webhookId || message.system) return null
  // A thread is a channel of its own; the bridge knows the channel it is in.
  const channel = message.channel
  const thread = channel.isThread() && channel.parentId ? { thread: channel.id } : {}
  return {
    ...thread,
    chatId: channel.isThread() && channel.parentId ? channel.parentId : message.channelId,
    chatType: message.channel.type === ChannelType.DM ? 'dm' : 'group',
    messageId: message.id,
    userId: message.author.id,
    userName: message.author.username,
    text: message.content,
    ts: message.createdAt.toISOString(),
    mentioned: mentions(message, botId),
    attachments: [...message.attachments.values()].map((file) =>
      attachment(file, message.flags.has(MessageFlags.IsVoiceMessage)),
    ),
  }
}

export function toPress(interaction: ButtonInteraction): ButtonPress {
  return {
    pressId: interaction.id,
    chatId: interaction.channelId,
    chatType: interaction.inGuild() ? 'group' : 'dm',
    messageId: interaction.message.id,
    userId: interaction.user.id,
    userName: interaction.user.username,
    data: interaction.customId,
  }
}

/** @everyone and @here address nobody in particular; a direct mention or a reply to the bot does. */
function mentions(message: Message, botId: string): boolean {
  if (message.mentions.repliedUser?.id === botId) return true
  return message.mentions.has(botId, { ignoreEveryone: true, ignoreRoles: true })
}

/**
 * A voice message (recorded in Discord's app: the message flagged IsVoiceMessage, its one attachment
 * audio) is a voice note, transcribed as Telegram's are; an audio file someone attached is a file.
 */
function attachment(file: Attachment, voiceMessage: boolean): InboundAttachment {
  const mime = file.contentType ?? null
  return {
    kind: kindOf(mime, voiceMessage),
    ref: file.url,
    name: file.name ?? null,
    mime,
    size: Number.isFinite(file.size) ? file.size : null,
  }
}

function kindOf(mime: string | null, voiceMessage: boolean): InboundAttachment['kind'] {
  if (mime?.startsWith('image/')) return 'photo'
  return voiceMessage && mime?.startsWith('audio/') ? 'voice' : 'file'
}
