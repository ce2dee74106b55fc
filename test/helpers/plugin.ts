// For the plugin's tests: a machine where only Node and Claude Code are installed (no `switchboard` on
// PATH), and a webhook pushed into a session whose channel the plugin started.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { type MessagesRequest, textOf } from '../fakes/anthropic.js'
import { CLAUDE_BIN, PLUGIN_DIR } from './claude.js'
import { startedSession, type World } from './e2e.js'

/** `node` and `claude` in `dir`, then every folder of this PATH that holds no `switchboard`. */
export function pathWithoutSwitchboard(dir: string): string {
  mkdirSync(dir, { recursive: true })
  symlinkSync(process.execPath, join(dir, 'node'))
  symlinkSync(CLAUDE_BIN, join(dir, 'claude'))
  const system = (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((folder) => folder && !existsSync(join(folder, 'switchboard')))
  return [dir, ...system].join(delimiter)
}

/**
 * Starts a `-p` session with `args`, posts `body` to a webhook source, waits for the turn it starts,
 * and returns what the model was shown of it.
 */
export async function webhookShown(
  world: World,
  args: string[],
  env: Record<string, string>,
  body: string,
): Promise<string> {
  // The session's channel starts the hub, in Claude Code's environment; the source is added through it.
  const session = await startedSession(world, args, env)
  const secret = await world.home.addSource('alerts')
  const res = await fetch(`${world.home.url}/hooks/alerts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body,
  })
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}`)
  await session.waitForTurns(1)
  return textOf(world.fake.requests.at(-1)?.messages)
}

export const REPLY_TOOL = 'mcp__plugin_switchboard_switchboard__reply'
/** The local plugin with its channel on, in -p mode (PROTOCOLS.md §2 recipe). */
export const PLUGIN_CHANNEL = [
  '--plugin-dir',
  PLUGIN_DIR,
  '--channels',
  'plugin:switchboard@inline',
  '--replay-user-messages',
]

/** The <channel …>…</channel> block holding `marker`, as the model was shown it. */
export function channelBlock(request: MessagesRequest, marker: string): string | undefined {
  return textOf(request.messages)
    .match(/<channel [^>]*>[^<]*<\/channel>/g)
    ?.find((b) => b.includes(marker))
}
