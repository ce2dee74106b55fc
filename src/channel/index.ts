// `switchboard channel`: the MCP server Claude Code spawns. It speaks the channel contract
// (PROTOCOLS.md §2) to Claude Code and the hub protocol to the hub, which owns every event.

import { readFileSync } from 'node:fs'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { z } from 'zod'
import { transcriptFiles } from '../claude/transcript-file.js'
import { TranscriptWatch } from '../claude/transcript-watch.js'
import { hubStarter } from '../client/autostart.js'
import { localSocket, tcpTarget } from '../client/hub-address.js'
import { HubClient } from '../client/hub-client.js'
import { readAdminToken } from '../core/admin-token.js'
import { defusedContent } from '../core/channel-content.js'
import { type HubConfig, paths } from '../core/config.js'
import { isHubDriven } from '../core/driven.js'
import { eventMeta, type StoredEvent } from '../core/event.js'
import { type ChatAction, type PeerRequest, permissionRequestSchema } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import { defaultSubscriberName } from '../core/subscriber-name.js'
import { serveTools, type Tool, type ToolSpec, textResult, tool, toolError } from '../core/tool-call.js'
import { VERSION } from '../core/version.js'
import { claudeStartedAt } from './claude-started.js'
import { Confirmer } from './confirm.js'
import { runDrivenChannel } from './driven.js'
import { Inbox } from './inbox.js'
import { channelInstructions } from './instructions.js'
import { channelRevisionsOnly } from './protocol-revision.js'
import { recordingShown } from './recording-transport.js'
import { chooseRung, type Rung } from './rung.js'
import { ShownLog } from './shown.js'
import { CHAT_ACTIONS, channelTools, PEER_ACTIONS } from './tools.js'
import { unconfirmedReason } from './why.js'

export const SERVER_NAME = 'switchboard'
const HUB_WAIT_MS = 20_000

export interface ChannelOptions {
  name?: string
  topics?: string[]
  aliases?: string[]
}

const PermissionRequestNotification = z.object({
  method: z.literal('notifications/claude/channel/permission_request'),
  params: permissionRequestSchema,
})

export async function runChannel(config: HubConfig, options: ChannelOptions, log: Logger): Promise<void> {
  if (isHubDriven()) return runDrivenChannel(SERVER_NAME, log)
  const inbox = new Inbox()
  const subscriber = options.name ?? defaultSubscriberName(process.cwd())
  /**
   * What Claude Code shows as the tag's attributes. `subscriber` names this channel: two servers of
   * one session may both be handed an event, and each confirms only its own tag (transcript-marks.ts).
   */
  const channelMeta = (event: StoredEvent) => ({ ...eventMeta(event), subscriber })
  let shown: ShownLog | null = null
  /** Chosen once the MCP client initialized the channel: until then the hub lists it without one. */
  let rung: Rung | null = null
  // Claude Code drops channel notifications, silently, until it has set the server up, which ends
  // some time after `initialized` (seen: a notification 10 ms after it was lost, one 1 s after arrived).
  // Nothing says when; the first delivery waits the listenGraceMs setting.
  const ready = deferred()
  let mcp: Server | null = null

  // --- hub: events in, verdicts in -------------------------------------------------
  const hub = new HubClient({
    target: tcpTarget(config),
    socketPath: localSocket(config),
    hubs: config.hubs,
    token: readAdminToken(config),
    subscriber,
    topics: options.topics?.length ? options.topics : ['*'],
    rung: () => rung,
    aliases: options.aliases,
    // Claude Code starts its MCP servers in the session's folder, and names the session to them.
    folder: process.cwd(),
    session: process.env.CLAUDE_CODE_SESSION_ID || undefined,
    log,
    // Given several hubs, the channel moves between them; it starts none.
    ...(config.hubs.length > 1 ? {} : { onHubMissing: hubStarter(config, log) }),
    async onDeliver(event: StoredEvent) {
      await ready.promise
      if (!shown) await logOpened.promise
      // Shown before, by this channel or the one before it: not written again. One the transcript
      // shows in context goes through the confirmer all the same, which says so again: the hub sends
      // again what it did not see acknowledged, and a hub that died before it stored the in_context
      // receipt would otherwise keep the event `written` for good.
      if (shown?.has(event.id) && !(confirming && rung === 'channel' && inContext(event.id))) return
      if (rung === 'channel') {
        inbox.add(event, true)
        // Done once Claude Code's transcript shows it in context: acknowledged then (see confirm.ts).
        if (confirming) {
          await confirmer.deliver(event)
          return 'kept'
        }
        await showing(
          event,
          mcp?.notification({
            method: 'notifications/claude/channel',
            params: { content: defusedContent(event.content), meta: channelMeta(event) },
          }),
        )
        return
      }
      // Rung 5: a client without channels gets a line it can act on, and reads the event with inbox.
      // Nothing says it read the line, so the event stays the hub's until inbox returns it.
      if (inbox.state(event.id) === 'absent') {
        inbox.add(event, false)
        const from = event.sender ? `${event.sender} via ${event.source}` : event.source
        await mcp?.sendLoggingMessage({
          level: 'notice',
          logger: 'switchboard',
          data: `New event ${event.id} from ${from} (topic ${event.topic}): call the inbox tool to read it.`,
        })
      }
      return 'kept'
    },
    async onVerdict(requestId, behavior) {
      await ready.promise
      await mcp?.notification({
        method: 'notifications/claude/channel/permission',
        params: { request_id: requestId, behavior },
      })
    },
  })
  // Receipts (issue 23): the session's transcript says what reached Claude's context. Only Claude
  // Code writes one (it sets CLAUDECODE=1 for what it starts), and not without persistence: other
  // clients' channels acknowledge what they wrote, as before.
  const startedAt = Date.now()
  const confirming =
    process.env.CLAUDECODE === '1' && !/(^|\0)--no-session-persistence(\0|$)/.test(parentCmdline())
  const watch = new TranscriptWatch(
    () => transcriptFiles(process.cwd(), process.env.CLAUDE_CODE_SESSION_ID, startedAt - 60_000),
    (id, mark) => confirmer.seen(id, mark),
    claudeStartedAt(startedAt - 5_000),
    subscriber,
  )
  /** Whether the transcript, read up to now, has this event in Claude's context. */
  const inContext = (id: string) => {
    watch.refresh()
    return watch.state(id) === 'in_context'
  }
  const confirmer: Confirmer = new Confirmer(
    {
      write: async (event) => {
        await mcp?.notification({
          method: 'notifications/claude/channel',
          params: { content: defusedContent(event.content), meta: channelMeta(event) },
        })
      },
      receipt: (event, stage, tries, reason) => {
        const at = stage === 'written' || stage === 'unconfirmed' ? undefined : Date.now()
        hub.receipt({
          event_id: event.id,
          stage,
          tries,
          ...(at ? { at } : {}),
          ...(reason ? { reason } : {}),
        })
        log.info({ event: event.id, stage, tries, reason }, 'delivery receipt')
      },
      confirmed: (event) => {
        shown?.record(event.id)
        hub.handled(event.id)
      },
      unconfirmed: (event, reason) => {
        // Down the ladder: the hub hands it to the session's hook; here it waits unread in the inbox,
        // with a line Claude can act on.
        inbox.add(event, false)
        void mcp?.sendLoggingMessage({
          level: 'notice',
          logger: 'switchboard',
          data: `New event ${event.id} from ${event.source} (topic ${event.topic}) could not be shown (${reason}): call the inbox tool to read it.`,
        })
        hub.handled(event.id)
      },
      why: () => unconfirmedReason(SERVER_NAME, watch.found),
      // Claude Code reads its pipe in order: a ping answered was read after every line before it.
      read: async () => {
        try {
          await mcp?.ping()
        } catch (err) {
          log.debug({ err }, 'Claude Code answered no ping: the deadline runs from the write')
          throw err
        }
      },
    },
    {
      deadlineMs: config.confirmMs,
      tries: config.confirmTries,
      state: (id) => watch.state(id),
      refresh: () => watch.refresh(),
      newestLineAt: () => watch.newestLineAt(),
    },
  )
  if (confirming) watch.start()
  log.debug(
    {
      confirming,
      transcripts: transcriptFiles(process.cwd(), process.env.CLAUDE_CODE_SESSION_ID, startedAt),
    },
    'transcript watch',
  )
  // Claude Code hears the channel at once; the hub may still be starting. An MCP handshake that
  // waited for the hub (seconds, when the channel starts it) left a -p session that never took a
  // channel notification: seen under load, every event written and none starting a turn.
  const logOpened = deferred()
  const welcoming = hub.connect(HUB_WAIT_MS).then((welcome) => {
    shown = ShownLog.open(paths.shownLog(config.home, welcome.subscriber))
    logOpened.resolve()
    return welcome
  })
  welcoming.catch(() => {}) // awaited below, once Claude Code was answered
  const [{ Server }, { StdioServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ])

  /**
   * The transport records an event as shown the moment its bytes are in Claude Code's pipe (see
   * recordingShown); once the write has completed it is recorded here at the latest, and only then
   * acknowledged: a crash in between shows it again at worst, and never loses it.
   */
  async function showing(event: StoredEvent, sent: Promise<void> | undefined): Promise<void> {
    await sent
    shown?.record(event.id)
  }

  // --- capabilities: the relay is declared from the start (the hub may not have answered yet);
  // only an operator's answer, or one at the terminal, ever settles a relayed prompt --------------
  const experimental: Record<string, object> = {
    'claude/channel': {},
    'claude/channel/permission': {},
  }
  mcp = new Server(
    { name: SERVER_NAME, version: VERSION },
    {
      capabilities: { experimental, tools: {}, logging: {} },
      instructions: channelInstructions(SERVER_NAME),
    },
  )
  mcp.oninitialized = () => {
    rung = chooseRung(mcp?.getClientVersion()?.name, config.delivery)
    hub.announceRung(rung)
    log.info({ rung, client: mcp?.getClientVersion()?.name }, 'delivery rung chosen')
    setTimeout(() => ready.resolve(), config.listenGraceMs)
  }

  // --- tools: the peer tools, reply and the chat tools, inbox ---------------------------
  const answered = (r: { ok: boolean; message: string }) =>
    r.ok ? textResult(r.message) : toolError(r.message)
  const peerTools = Object.entries(PEER_ACTIONS).map(([name, action]) => [
    name,
    tool(channelTools[name as keyof typeof PEER_ACTIONS] as ToolSpec, async (a) =>
      answered(await hub.peer({ ...a, action } as PeerRequest)),
    ),
  ])
  const chatTools = Object.entries(CHAT_ACTIONS).map(([name, action]) => [
    name,
    tool(channelTools[name as keyof typeof CHAT_ACTIONS] as ToolSpec, async (a) =>
      answered(await hub.chatAction({ ...a, action } as ChatAction)),
    ),
  ])
  const tools: Record<string, Tool> = {
    ...Object.fromEntries(peerTools),
    reply: tool(channelTools.reply, async ({ chat_id, text, reply_to, files }) =>
      answered(await hub.reply(chat_id, text, { reply_to, files })),
    ),
    ...Object.fromEntries(chatTools),
    inbox: tool(channelTools.inbox, async ({ limit }) => {
      const { events, newlyRead } = inbox.take(limit)
      // Read now: recorded first, so a channel started after a crash does not show it again.
      for (const event of newlyRead) {
        shown?.record(event.id)
        hub.handled(event.id)
      }
      const listed = events.map((e) => ({ ...eventMeta(e), content: e.content }))
      return textResult(JSON.stringify(listed, null, 2))
    }),
  }
  serveTools(mcp, tools, (err, name) => log.error({ err, tool: name }, 'tool failed'))

  // --- permission relay: Claude Code asks, operators answer through the hub -----------
  mcp.setNotificationHandler(PermissionRequestNotification, async ({ params }) => {
    const result = await hub.requestPermission(params)
    if (!result.ok)
      log.error({ request: params.request_id, reason: result.message }, 'permission relay failed')
  })

  // --- lifetime: Claude Code closing our stdin ends the session -----------------------
  const closed = deferred()
  mcp.onclose = () => closed.resolve()
  process.stdin.on('end', () => closed.resolve())
  await mcp.connect(
    channelRevisionsOnly(
      recordingShown(
        new StdioServerTransport(),
        // Confirming, an event is recorded as shown once it is in context, not once it is written.
        (id) => (confirming ? undefined : shown?.record(id)),
        () => process.stdout.writableLength === 0,
      ),
    ),
  )
  const welcome = await welcoming
  log.info({ subscriber: welcome.subscriber, operators: welcome.operators }, 'channel ready')
  await closed.promise
  watch.stop()
  confirmer.close()
  await hub.close()
  ;(shown as ShownLog | null)?.close()
}

function parentCmdline(): string {
  try {
    return readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8')
  } catch {
    return ''
  }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}
