// Why an event the channel wrote would not reach Claude's context, as far as the channel can see:
// said to operators with an unconfirmed event (issue 23).
import { readFileSync } from 'node:fs'

const CHANNEL_FLAGS = ['--channels', '--dangerously-load-development-channels']

function parentArgv(): string[] | null {
  try {
    return readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return null
  }
}

/** The values given to Claude Code's channel flags (`--channels a b`, `--channels=a`). */
export function channelFlagValues(argv: string[]): string[] | null {
  let found = false
  const values: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const flag = CHANNEL_FLAGS.find((f) => arg === f || arg.startsWith(`${f}=`))
    if (!flag) continue
    found = true
    if (arg.includes('=')) values.push(arg.slice(arg.indexOf('=') + 1))
    else
      for (let j = i + 1; j < argv.length && !(argv[j] as string).startsWith('-'); j++)
        values.push(argv[j] as string)
  }
  return found ? values : null
}

/** What the transcript tells of the session's start: when its first turn began, and when the channel was set up. */
export interface SessionStart {
  /** When this Claude Code process made its first transcript line (a turn beginning), if any. */
  firstLineAt: number | null
  /** When Claude Code finished setting the channel up (`initialized`), if it did. */
  setUpAt: number | null
}

export function unconfirmedReason(
  serverName: string,
  transcriptFound: boolean,
  argv: string[] | null = parentArgv(),
  start: SessionStart = { firstLineAt: null, setUpAt: null },
): string {
  const isClaude = argv !== null && /(^|\/)claude(\.exe)?$/.test(argv[0] ?? '')
  if (isClaude) {
    const values = channelFlagValues(argv)
    if (values === null)
      return 'the dev flag is missing: Claude Code was started without --channels or --dangerously-load-development-channels'
    if (!values.some((v) => v.includes(serverName)))
      return `channels are not enabled for this server: Claude Code's channel flags name ${values.join(', ') || 'nothing'}`
  }
  if (!transcriptFound) return "the session's transcript was not found, so nothing shows the event arrived"
  if (start.firstLineAt !== null && start.setUpAt !== null && start.firstLineAt < start.setUpAt)
    return `Claude Code set the channel up late, after the session's turn had begun (${new Date(start.firstLineAt).toISOString()}, set up ${new Date(start.setUpAt).toISOString()}): it wires a channel's notifications as a turn begins, so none reach Claude before the session's next turn`
  return 'Claude Code did not take it into the conversation (dropped while starting, or refused)'
}
