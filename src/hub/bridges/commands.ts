// Commands a person types in a DM with the bot (or in the group with topics): which sessions take this chat and which one gets
// the next messages (`/sessions`, `/to`), and for operators, starting and stopping driven sessions
// (`/new`, `/status`, `/stop`), firing routines (`/run`) and which notices they get (`/notices`). Unknown `/words` are not commands: they go to Claude as they are.
import { isAbsolute } from 'node:path'
import { namedWithAgent } from '../../core/agents.js'
import { isDomainError } from '../../core/errors.js'
import { topicMatches } from '../../core/event.js'
import { NOTICE_USAGE, noticeKindsOf, noticeLine } from '../../core/notices.js'
import type { InboundMessage } from '../../sources/chat/platform.js'
import type { Sender } from '../../store/store.js'
import type { BridgeContext } from './context.js'
import {
  DEFAULT_PROGRESS,
  PROGRESS_LEVELS,
  PROGRESS_MEANING,
  progressKey,
  progressLevelSchema,
} from './progress-level.js'

const HELP = [
  'Switchboard commands:',
  '/sessions — the sessions that take this chat (with a channel, or at a terminal with the hooks)',
  '/to <session> — send this chat’s next messages to one session (/to alone: to all)',
  '/status — the driven sessions (operators)',
  '/new <folder> <prompt> — start a session in a folder on the hub’s machine (operators)',
  '/stop <session> — stop a driven session (operators)',
  '/run <routine> [text] — fire a routine with the text as its event; its run’s end is told here (operators)',
  '/notices [waiting] [finished] [run-started] [run-ended] [budget] | all | off — which notices of sessions, routine runs and budgets you get here (operators)',
  '/progress [off|minimal|normal|full] — how much of a session’s work this chat or thread shows as it happens',
  'yes <id> / no <id> — answer a prompt (operators)',
  'answer <id> <one answer per question> — answer a question (operators)',
].join('\n')

/**
 * True when the message was a command (and was answered, by `say`: in a DM, stored like a reply; in a
 * group with topics, at once where it was written).
 */
export async function runCommand(
  context: BridgeContext,
  message: InboundMessage,
  sender: Sender,
  chatId: string,
  say: (text: string) => Promise<unknown> = (text) => context.hub.reply('switchboard', chatId, text),
): Promise<boolean> {
  const match = /^\/([a-z]+)(?:@\S+)?(?:\s+([\s\S]*))?$/i.exec(message.text.trim())
  if (!match?.[1]) return false
  const word = match[1].toLowerCase()
  const rest = (match[2] ?? '').trim()
  const topic = `chat:${context.platform}:${message.chatId}`
  const operatorOnly = async (): Promise<boolean> => {
    if (sender.operator) return true
    await say(`/${word} is for operators.`)
    return false
  }

  switch (word) {
    case 'start':
    case 'help':
      await say(HELP)
      return true
    case 'notices': {
      if (!(await operatorOnly())) return true
      const decisions = context.hub.decisions
      if (rest) {
        try {
          await decisions.chooseNotices(sender.id, noticeKindsOf([rest]))
        } catch (err) {
          if (!isDomainError(err)) throw err
          await say(err.message)
          return true
        }
      }
      const line = noticeLine(await decisions.noticeChoice(sender.id))
      await say(`You get ${line} here${rest ? ' now' : ''}. /notices ${NOTICE_USAGE} changes it.`)
      return true
    }
    case 'progress': {
      const key = progressKey(message.chatId, message.thread)
      if (rest) {
        if (!(await operatorOnly())) return true
        const level = progressLevelSchema.safeParse(rest.toLowerCase())
        if (!level.success) {
          await say(`Say one of ${PROGRESS_LEVELS.join(', ')} (not "${rest}").`)
          return true
        }
        await context.memory.setProgress(key, level.data)
      }
      const chosen = await context.memory.progress(key)
      // A thread without a level of its own shows its group's.
      const inherited = chosen ?? (message.thread ? await context.memory.progress(message.chatId) : null)
      const level = inherited ?? DEFAULT_PROGRESS
      await say(
        `Progress ${message.thread ? 'in this thread' : 'here'}${rest ? ' now' : ''}: ${level} — ${PROGRESS_MEANING[level]}.${rest ? '' : ' /progress off|minimal|normal|full changes it.'}`,
      )
      return true
    }
    case 'sessions': {
      const takers = await sessionsTaking(context, topic)
      const current = await context.memory.route(chatId)
      await say(
        takers.length
          ? `Sessions taking this chat:\n${takers.map((n) => `${n === current ? '→ ' : '• '}${n}`).join('\n')}${current ? '' : '\n(all of them get your messages; /to <session> picks one)'}`
          : 'No session takes this chat now. Start Claude Code with the Switchboard channel, or /new <folder> <prompt>.',
      )
      return true
    }
    case 'to': {
      if (!rest) {
        await context.memory.setRoute(chatId, null)
        await say('Your messages go to every session that takes this chat.')
        return true
      }
      const takers = await sessionsTaking(context, topic)
      const chosen = takers.find((n) => n === rest || n === `session:${rest}`)
      if (!chosen) {
        await say(`No session "${rest}" takes this chat. /sessions lists them.`)
        return true
      }
      await context.memory.setRoute(chatId, chosen)
      await say(`Your messages now go to ${chosen} only.`)
      return true
    }
    case 'status': {
      if (!(await operatorOnly())) return true
      const sessions = context.sessions ? await context.sessions.list() : []
      await say(
        sessions.length
          ? sessions
              .map(
                (s) =>
                  `${s.id} ${s.status}${s.live ? '' : ' (not running)'} — ${namedWithAgent(s.cwd ?? '', s.agent)}`,
              )
              .join('\n')
          : 'No driven sessions.',
      )
      return true
    }
    case 'new': {
      if (!(await operatorOnly())) return true
      const [, folder, prompt] = /^(\S+)\s+([\s\S]+)$/.exec(rest) ?? []
      if (!folder || !prompt || !isAbsolute(folder)) {
        await say('Usage: /new <absolute folder> <prompt>')
        return true
      }
      if (!context.sessions) {
        await say('This hub does not drive sessions.')
        return true
      }
      try {
        const session = await context.sessions.create(
          prompt,
          { cwd: folder },
          { topics: [topic], startedBy: sender.name },
        )
        await context.memory.setSessionChat(session.id, chatId)
        // In the group with topics the session gets a thread of its own, and the main chat stays everyone's.
        const thread =
          message.chatId === context.threads.group()
            ? await context.threads.of(`session:${session.id}`)
            : null
        if (thread) {
          await say(`Started ${session.id} in ${folder}; it answers in its thread “${thread.title}”.`)
          return true
        }
        await context.memory.setRoute(chatId, `session:${session.id}`)
        await say(`Started ${session.id} in ${folder}; this chat’s messages now go to it.`)
      } catch (err) {
        await say(`Could not start a session: ${(err as Error).message}`)
      }
      return true
    }
    case 'stop': {
      if (!(await operatorOnly())) return true
      if (!rest || !context.sessions) {
        await say('Usage: /stop <session id>')
        return true
      }
      try {
        await context.sessions.stop(rest.replace(/^session:/, ''), `stopped from ${context.platform}`)
        await say(`Stopped ${rest}.`)
      } catch (err) {
        await say(`Could not stop ${rest}: ${(err as Error).message}`)
      }
      return true
    }
    case 'run': {
      if (!(await operatorOnly())) return true
      await say(await fireRoutine(context, rest, sender, chatId))
      return true
    }
    default:
      return false
  }
}

/**
 * `/run <routine> [text]`: the routine is fired with the text as its event's content, from this chat,
 * so the runner tells the run's end here (runner.ts). `/run` alone lists what may be fired.
 */
async function fireRoutine(
  context: BridgeContext,
  rest: string,
  sender: Sender,
  chatId: string,
): Promise<string> {
  const { routines } = context
  if (!routines) return 'This hub runs no routines.'
  const [, name, text] = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest) ?? []
  if (!name) {
    const all = await routines.list()
    return all.length
      ? `Routines: ${all.map((r) => `${r.name}${r.paused ? ' (paused)' : ''}`).join(', ')}. /run <routine> [text] fires one.`
      : 'No routines. switchboard routine add <file> adds one.'
  }
  try {
    await routines.mayStart(name, false)
    const run = await routines.fire(name, { content: text ?? '', chat_id: chatId }, sender.name)
    return `Fired ${name}: run ${run.id} is ${run.state}; its end is told here.`
  } catch (err) {
    if (!isDomainError(err)) throw err
    return `Could not fire ${name}: ${err.message}`
  }
}

/**
 * Live subscribers whose topics take this chat (channels with `*`, sessions started for it), and the
 * sessions at terminals whose hooks take their messages with the next prompt or tool call.
 */
async function sessionsTaking(context: BridgeContext, topic: string): Promise<string[]> {
  const { hub } = context
  const atTerminals = new Set(
    (await hub.store.listTerminalSessions()).filter((t) => t.status === 'running').map((t) => t.name),
  )
  return (await hub.store.listSubscribers())
    .filter(
      (s) =>
        (hub.isConnected(s.name) || atTerminals.has(s.name)) &&
        !s.name.startsWith('webhook:') &&
        topicMatches(s.topics, topic),
    )
    .map((s) => s.name)
    .sort()
}
