// The chat bridges a hub runs, kept in `<home>/bridges.json` (mode 0600: it holds bot tokens). The
// CLI writes it; a running hub reads it again when it changes, so adding a bridge needs no restart.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { readJsonFile } from './config.js'
import { replacePrivateFile } from './private-file.js'

export const BRIDGE_PLATFORMS = ['telegram', 'discord', 'slack'] as const
export type BridgePlatform = (typeof BRIDGE_PLATFORMS)[number]

/** How each platform writes a person's id: what a bridge's sender is named by (`telegram:<id>`). */
export const USER_IDS: Record<BridgePlatform, { pattern: RegExp; example: string }> = {
  telegram: { pattern: /^\d{1,20}$/, example: 'digits, such as 123456789' },
  discord: { pattern: /^\d{15,25}$/, example: 'a snowflake such as 123456789012345678' },
  slack: { pattern: /^[UW][A-Z0-9]{6,}$/, example: 'U followed by letters and digits, such as U0123ABCDEF' },
}

/** Characters per message each platform takes. */
export const TEXT_LIMITS: Record<BridgePlatform, number> = { telegram: 4096, discord: 2000, slack: 4000 }

const chatIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'a chat id holds letters, digits, - and _ only')

export const bridgeGroupSchema = z
  .object({
    id: chatIdSchema,
    /** Answer only messages that mention the bot (or reply to it). */
    requireMention: z.boolean().default(true),
    /** A thread per session here (Telegram: a forum topic), its replies, prompts and notices in it. */
    topics: z.boolean().default(false),
  })
  .strict()

export const bridgeConfigSchema = z
  .object({
    token: z.string().min(1, 'the bot token must not be empty'),
    /** Slack's app-level token (xapp-…), for Socket Mode. */
    appToken: z.string().min(1).optional(),
    /** Another API server (a self-hosted Bot API, a proxy, a test's fake). */
    apiUrl: z.url({ error: 'the API URL must be an http(s) URL' }).optional(),
    /** Who may write in: `pairing` answers strangers with a code; `allowlist` ignores them; `disabled` takes nothing. */
    policy: z.enum(['pairing', 'allowlist', 'disabled']).default('pairing'),
    groups: z.array(bridgeGroupSchema).default([]),
    /** Characters per message, at most the platform's limit. */
    textChunkLimit: z.number().int().min(100).optional(),
    chunkMode: z.enum(['length', 'newline']).default('newline'),
    /** An emoji the bot reacts with to each message it takes, e.g. 👀; none when unset. */
    ackReaction: z.string().min(1).max(16).optional(),
    addedAt: z.number().int(),
  })
  .strict()
export type BridgeConfig = z.infer<typeof bridgeConfigSchema>

/** One bridge per platform at most. */
export const bridgesFileSchema = z
  .object(
    Object.fromEntries(BRIDGE_PLATFORMS.map((p) => [p, bridgeConfigSchema.optional()])) as {
      [P in BridgePlatform]: z.ZodOptional<typeof bridgeConfigSchema>
    },
  )
  .strict()
export type BridgesFile = z.infer<typeof bridgesFileSchema>

export function bridgesPath(home: string): string {
  return join(home, 'bridges.json')
}

export function readBridges(home: string): BridgesFile {
  return readJsonFile(bridgesPath(home), bridgesFileSchema)
}

/** Written whole and renamed into place, so a hub reading it never sees half a file. */
export function writeBridges(home: string, bridges: BridgesFile): void {
  replacePrivateFile(bridgesPath(home), `${JSON.stringify(bridgesFileSchema.parse(bridges), null, 2)}\n`)
}

/** Changes whenever the file is rewritten: what a hub compares to know it must read it again. */
export function bridgesStamp(home: string): string {
  try {
    const s = statSync(bridgesPath(home))
    return `${s.mtimeMs}:${s.size}:${s.ino}`
  } catch {
    return 'none'
  }
}
