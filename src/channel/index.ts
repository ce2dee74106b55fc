// `switchboard channel`: the MCP server Claude Code spawns. It speaks the channel contract
// (PROTOCOLS.md §2) to Claude Code and the hub protocol to the hub, which owns every event. This file
// is the wiring, in the order things depend on each other: Claude Code's side, the delivery (what to
// do with an event that arrives: delivery.ts), the hub, then what Claude Code may ask.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { transcriptFiles } from '../claude/transcript-file.js'
import { hubStarter } from '../client/autostart.js'
import { localSocket, tcpTarget } from '../client/hub-address.js'
import { HubClient } from '../client/hub-client.js'
import { readAdminToken } from '../core/admin-token.js'
import { type HubConfig, paths } from '../core/config.js'
import { isHubDriven } from '../core/driven.js'
import type { Logger } from '../core/log.js'
import { defaultSubscriberName } from '../core/subscriber-name.js'
import { serveTools } from '../core/tool-call.js'
import { ClaudeCode, channelServer, PermissionRequestNotification, SERVER_NAME } from './claude-code.js'
import { Delivery } from './delivery.js'
import { runDrivenChannel } from './driven.js'
import { channelRevisionsOnly } from './protocol-revision.js'
import { recordingShown } from './recording-transport.js'
import { chooseRung } from './rung.js'
import { sessionTranscript, transcriptWritten } from './session-transcript.js'
import { ShownLog } from './shown.js'
import { toolCalls } from './tool-calls.js'
import { unconfirmedReason } from './why.js'

const HUB_WAIT_MS = 20_000

export interface ChannelOptions {
  name?: string
  topics?: string[]
  aliases?: string[]
}

export async function runChannel(config: HubConfig, options: ChannelOptions, log: Logger): Promise<void> {
  if (isHubDriven()) return runDrivenChannel(SERVER_NAME, log)
  // Claude Code starts its MCP servers in the session's folder, and names the session to them.
  const folder = process.cwd()
  const session = process.env.CLAUDE_CODE_SESSION_ID || undefined
  const subscriber = options.name ?? defaultSubscriberName(folder)

  // --- Claude Code ------------------------------------------------------------------------------
  const mcp = channelServer()
  const claude = new ClaudeCode(mcp, subscriber, log)

  // --- delivery: the rung, the shown log, the inbox, and receipts from the transcript -----------
  const confirming = transcriptWritten()
  const delivery = new Delivery({
    claude,
    transcript: sessionTranscript({ folder, id: session, subscriber }),
    confirming,
    graceMs: config.listenGraceMs,
    deadlineMs: config.confirmMs,
    tries: config.confirmTries,
    why: (found, start) => unconfirmedReason(SERVER_NAME, found, undefined, start),
  })
  log.debug({ confirming, transcripts: transcriptFiles(folder, session, Date.now()) }, 'transcript watch')

  // --- hub: events in, verdicts in; receipts and acknowledgements out ---------------------------
  const hub = new HubClient({
    target: tcpTarget(config),
    socketPath: localSocket(config),
    hubs: config.hubs,
    token: readAdminToken(config),
    heartbeatMs: config.heartbeatMs,
    subscriber,
    topics: options.topics?.length ? options.topics : ['*'],
    rung: () => delivery.rung,
    aliases: options.aliases,
    folder,
    session,
    log,
    // Given several hubs, the channel moves between them; it starts none.
    ...(config.hubs.length > 1 ? {} : { onHubMissing: hubStarter(config, log) }),
    onDeliver: (event) => delivery.deliver(event),
    async onVerdict(requestId, behavior) {
      await delivery.listening
      await claude.verdict(requestId, behavior)
    },
  })
  delivery.on('receipt', (receipt) => {
    hub.receipt(receipt)
    const { event_id: event, stage, tries, reason } = receipt
    log.info({ event, stage, tries, reason }, 'delivery receipt')
  })
  delivery.on('handled', (id) => hub.handled(id))
  // Claude Code hears the channel at once; the hub may still be starting. An MCP handshake that
  // waited for the hub (seconds, when the channel starts it) left a -p session that never took a
  // channel notification: seen under load, every event written and none starting a turn.
  const welcoming = hub.connect(HUB_WAIT_MS).then((welcome) => {
    delivery.open(ShownLog.open(paths.shownLog(config.home, welcome.subscriber)))
    return welcome
  })
  welcoming.catch(() => {}) // awaited below, once Claude Code was answered

  // --- what Claude Code says: initialized, tool calls, permission prompts to relay ---------------
  mcp.oninitialized = () => {
    const client = mcp.getClientVersion()?.name
    const rung = chooseRung(client, config.delivery)
    delivery.begin(rung)
    hub.announceRung(rung)
    log.info({ rung, client }, 'delivery rung chosen')
  }
  serveTools(
    mcp,
    toolCalls(hub, (limit) => delivery.readInbox(limit)),
    (err, name) => log.error({ err, tool: name }, 'tool failed'),
  )
  mcp.setNotificationHandler(PermissionRequestNotification, async ({ params }) => {
    const result = await hub.requestPermission(params)
    if (!result.ok)
      log.error({ request: params.request_id, reason: result.message }, 'permission relay failed')
  })

  // --- lifetime: Claude Code closing our stdin ends the session ---------------------------------
  const closed = new Promise<void>((resolve) => {
    mcp.onclose = () => resolve()
    process.stdin.on('end', () => resolve())
  })
  // The transport records an event as shown the moment its bytes are in Claude Code's pipe.
  const inPipe = () => process.stdout.writableLength === 0
  const transport = recordingShown(new StdioServerTransport(), (id) => delivery.written(id), inPipe)
  await mcp.connect(channelRevisionsOnly(transport))
  const welcome = await welcoming
  log.info({ subscriber: welcome.subscriber, operators: welcome.operators }, 'channel ready')
  await closed
  // The hub first: nothing is taken, or acknowledged, once Claude Code is gone.
  await hub.close()
  delivery.close()
}
