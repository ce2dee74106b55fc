// A driven session's settings say what runs on the hub's machine when it resumes: the CLI binary,
// its flags, its MCP servers (each a command). They live in the database, which every hub shares
// and which anyone who can write to it could change. The hub that writes them seals them with the
// admin token (which the database never holds); a session whose settings do not carry that seal, or
// are not what the API could have set, is not resumed.
import { createHmac } from 'node:crypto'
import * as z from 'zod'
import { drivenAgentSchema } from '../../core/agents.js'
import { claudeOptionsSchema } from '../../core/claude-options.js'
import { conflict, type DomainError } from '../../core/errors.js'
import { safeEqual } from '../../core/ids.js'
import { sessionSetupSchema } from '../../core/session-api.js'

/** What the hub keeps of a session's settings (see SessionManager.create). */
export const sessionConfigSchema = z
  .object({
    options: claudeOptionsSchema,
    setup: sessionSetupSchema,
    peer: z.boolean().optional(),
    /** Which agent runs it; absent for Claude Code (every session stored before there were others). */
    agent: drivenAgentSchema.optional(),
  })
  .strict()
export type SessionConfig = z.infer<typeof sessionConfigSchema>

const sealedSchema = sessionConfigSchema.extend({ seal: z.string() }).strict()

/** The id the agent gave its session (Claude Code's session, Codex's thread): passed back as `--resume <id>`, so never a flag. */
const claudeSessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/)

export const TAMPERED = 'its stored settings were changed outside Switchboard'

/** JSON with keys in order at every level: the same settings always give the same seal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

function sealOf(key: string, sessionId: string, config: SessionConfig): string {
  return createHmac('sha256', key)
    .update(`switchboard-session:${sessionId}:${canonical(config)}`)
    .digest('hex')
}

/** The settings as they are stored: with the seal of this session's id under `key`. */
export function sealConfig(
  key: string,
  sessionId: string,
  config: SessionConfig,
): SessionConfig & { seal: string } {
  return { ...config, seal: sealOf(key, sessionId, config) }
}

/**
 * The stored settings of a session, checked: the schema the API checks, the seal, and the CLI's
 * session id; a conflict saying so when any of them fails.
 */
export function openSealed(
  key: string,
  session: { id: string; config: unknown; claudeSessionId: string | null },
): SessionConfig {
  const parsed = sealedSchema.safeParse(session.config)
  if (!parsed.success) throw tampered(session.id)
  const { seal, ...config } = parsed.data
  if (!safeEqual(seal, sealOf(key, session.id, config))) throw tampered(session.id)
  if (session.claudeSessionId !== null && !claudeSessionIdSchema.safeParse(session.claudeSessionId).success)
    throw tampered(session.id)
  return config
}

function tampered(id: string): DomainError {
  return conflict(`session ${id} cannot be resumed: ${TAMPERED}`)
}
