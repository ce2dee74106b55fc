// How a bridge names what it shows the hub: its people and groups as senders, its chats as sources.

/** A bridge's senders are `<platform>:<user id>`; a group it was added to is `<platform>:group:<chat id>`. */
export function senderNameOf(platform: string, userId: string): string {
  return `${platform}:${userId}`
}

export function groupSenderNameOf(platform: string, chatId: string): string {
  return `${platform}:group:${chatId}`
}

/** The hub keeps a bridged chat's platform id in the chat's source: `<platform>:<chat id>`. */
export function chatSourceOf(platform: string, chatId: string): string {
  return `${platform}:${chatId}`
}

export function platformChatOf(platform: string, chatSource: string): string | null {
  return chatSource.startsWith(`${platform}:`) ? chatSource.slice(platform.length + 1) : null
}
