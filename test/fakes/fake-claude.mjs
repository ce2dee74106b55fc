#!/usr/bin/env node
// A stand-in for `claude -p --input-format stream-json --output-format stream-json` (PROTOCOLS.md §3)
// for the session controller's unit tests: the same lines and control requests, with what happens in
// each turn read from the test's script instead of a model. Plain JavaScript so that it starts in a
// tenth of a second (a test starts many); test/helpers/fake-claude.ts writes its script and reads
// what it received.
//
// FAKE_CLAUDE_SCRIPT (JSON): {
//   turns: [{ when?: text the prompt contains, run?: the process it plays in (1 for the first one
//          the log has), init?: false for a turn that begins no session (no system init line),
//          steps: Step[] }]  (the first that matches; else the one without `when`; else one that
//          says "ok"),
//   sessionId?: the session id of a new session,
//   mcpSetServers?: the answer to mcp_set_servers,
//   silent?: control subtypes it never answers,
//   refuse?: a message it prints before exiting 1 at once (as a CLI refusing its flags does),
//   log?: a file it appends to: {argv} once, then {got: line} for every line it reads
// }
// Step: {say: text} an assistant line (its stream_events first with --include-partial-messages);
//   {partial: [pieces]} stream_events only; {ask: {tool, input, description?}} a can_use_tool round
//   trip and the tool's result; {hold: true} waits for an interrupt; {stderr: text}; {exit: code};
//   {kill: signal}; {raw: text} printed as it is; {write: {file, text}} a file written in its working
//   folder (as a session's edit leaves one); {result: fields} the turn's result, now, with these
//   fields (steps after it run after the turn; without one, a plain result ends the turn).
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'

const script = JSON.parse(process.env.FAKE_CLAUDE_SCRIPT ?? '{}')
const argv = process.argv.slice(2)
const flag = (name) => {
  const at = argv.indexOf(name)
  return at === -1 ? undefined : argv[at + 1]
}
const log = (entry) => {
  if (script.log) appendFileSync(script.log, `${JSON.stringify(entry)}\n`)
}
log({ argv })
/** Which process of the test this is: 1 for the first the log has. */
const runNumber =
  script.log && existsSync(script.log)
    ? readFileSync(script.log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"argv"')).length
    : 1
if (script.refuse) {
  process.stderr.write(`${script.refuse}\n`)
  process.exit(1)
}

const resumed = flag('--resume')
// A fork is a new session that starts from the resumed one's history.
const forked = resumed && argv.includes('--fork-session')
const sessionId = forked ? randomUUID() : (resumed ?? script.sessionId ?? randomUUID())
const partials = argv.includes('--include-partial-messages')
let model = flag('--model') ?? 'claude-fake'
let permissionMode = flag('--permission-mode') ?? 'default'

// --- the wire: stdout, or the WebSocket the hub handed over (--sdk-url, PROTOCOLS.md §4) -----------

let write = (line) => process.stdout.write(`${line}\n`)
const out = (message) => write(JSON.stringify(message))

let buffered = ''
function read(chunk) {
  buffered += chunk
  for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
    const text = buffered.slice(0, nl)
    buffered = buffered.slice(nl + 1)
    if (text.trim()) take(text)
  }
}

const sdkUrl = flag('--sdk-url')
if (sdkUrl) {
  const { WebSocket } = await import('ws')
  const ws = new WebSocket(sdkUrl, {
    headers: { authorization: `Bearer ${process.env.CLAUDE_CODE_SESSION_ACCESS_TOKEN ?? ''}` },
  })
  write = (line) => ws.send(`${line}\n`)
  ws.on('message', (data) => read(data.toString('utf8')))
  ws.on('close', () => process.exit(0))
  ws.on('error', (err) => {
    process.stderr.write(`sdk-url: ${err.message}\n`)
    process.exit(1)
  })
} else {
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', read)
  // Closing stdin ends the session, whatever was under way.
  process.stdin.on('end', () => process.exit(0))
}

// --- what it reads ----------------------------------------------------------------------------------

function take(text) {
  let line
  try {
    line = JSON.parse(text)
  } catch {
    // As the real CLI: a line that is not JSON ends it.
    process.stderr.write(`Error parsing streaming input line: ${text}\n`)
    process.exit(1)
  }
  log({ got: line })
  if (line.type === 'user') {
    if (!line.message) {
      process.stderr.write('Error: Expected message type user to have a message\n')
      process.exit(1)
    }
    queue.push(promptText(line.message.content))
    void next()
  } else if (line.type === 'control_request') control(line.request_id, line.request)
  else if (line.type === 'control_response') asked.get(line.response.request_id)?.(line.response)
}

function promptText(content) {
  if (typeof content === 'string') return content
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('')
}

// --- control requests from the host -----------------------------------------------------------------

function control(requestId, request) {
  if ((script.silent ?? []).includes(request.subtype)) return
  const success = (response = {}) =>
    out({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } })
  switch (request.subtype) {
    case 'initialize':
      return success({ commands: [], models: [{ value: model }], pid: process.pid, permissionMode })
    case 'interrupt':
      success({ still_queued: [] })
      return turn?.abort()
    case 'set_model':
      model = request.model
      return success()
    case 'set_permission_mode':
      permissionMode = request.mode
      success()
      return out({ type: 'system', subtype: 'status', permissionMode, session_id: sessionId })
    case 'mcp_set_servers':
      return success(
        script.mcpSetServers ?? { added: Object.keys(request.servers ?? {}), removed: [], errors: {} },
      )
    default:
      return out({
        type: 'control_response',
        response: {
          subtype: 'error',
          request_id: requestId,
          error: `Unsupported control request subtype: ${request.subtype}`,
          error_code: 'unsupported_request',
        },
      })
  }
}

// --- turns ------------------------------------------------------------------------------------------

const queue = []
/** The turn under way: abort() ends it as an interrupt does. */
let turn = null
/** can_use_tool requests waiting for the host's answer, by request id. */
const asked = new Map()

async function next() {
  if (turn || queue.length === 0) return
  const prompt = queue.shift()
  let abort = () => {}
  const aborted = new Promise((resolve) => {
    abort = () => resolve(null)
  })
  const mine = { aborted: false }
  mine.abort = () => {
    mine.aborted = true
    abort()
  }
  turn = mine
  await play(prompt, mine, aborted)
  turn = null
  void next()
}

function pick(prompt) {
  const turns = (script.turns ?? []).filter((t) => t.run === undefined || t.run === runNumber)
  return (
    turns.find((t) => t.when !== undefined && prompt.includes(t.when)) ??
    turns.find((t) => t.when === undefined) ?? { steps: [{ say: 'ok' }] }
  )
}

async function play(prompt, mine, aborted) {
  const turn = pick(prompt)
  if (turn.init !== false)
    out({
      type: 'system',
      subtype: 'init',
      cwd: process.cwd(),
      session_id: sessionId,
      tools: ['Bash', 'Read', 'AskUserQuestion', 'ExitPlanMode'],
      mcp_servers: [],
      model,
      permissionMode,
      claude_code_version: 'fake',
    })
  let said = ''
  let ended = false
  for (const step of turn.steps) {
    if (mine.aborted) break
    if ('say' in step) {
      if (partials) streamed([step.say])
      assistant([{ type: 'text', text: step.say }])
      said = step.say
    } else if ('partial' in step) streamed(step.partial)
    else if ('ask' in step) await ask(step.ask, mine, aborted)
    else if ('hold' in step) await aborted
    else if ('stderr' in step) process.stderr.write(`${step.stderr}\n`)
    else if ('exit' in step) process.exit(step.exit)
    else if ('kill' in step) process.kill(process.pid, step.kill)
    else if ('raw' in step) write(step.raw)
    else if ('write' in step) writeFileSync(step.write.file, step.write.text)
    else if ('result' in step) {
      result({ subtype: 'success', is_error: false, result: said, ...step.result })
      ended = true
    }
  }
  if (mine.aborted) {
    assistant([{ type: 'text', text: said }], { aborted: true })
    out({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      session_id: sessionId,
    })
    return result({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming' })
  }
  if (!ended) result({ subtype: 'success', is_error: false, result: said })
}

function assistant(content, extra = {}) {
  out({
    type: 'assistant',
    message: { id: `msg_${randomUUID()}`, role: 'assistant', model, content },
    session_id: sessionId,
    ...extra,
  })
}

function streamed(pieces) {
  const event = (e) => out({ type: 'stream_event', event: e, session_id: sessionId })
  event({ type: 'message_start', message: { id: `msg_${randomUUID()}` } })
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  for (const text of pieces)
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })
}

function result(fields) {
  out({
    type: 'result',
    session_id: sessionId,
    num_turns: 1,
    total_cost_usd: 0.01,
    duration_ms: 1,
    ...fields,
  })
}

/** A tool call: the CLI asks the host, then runs the input it was given back (or reports the denial). */
async function ask(call, mine, aborted) {
  const requestId = randomUUID()
  const toolUseId = `toolu_${randomUUID()}`
  assistant([{ type: 'tool_use', id: toolUseId, name: call.tool, input: call.input }])
  const answered = new Promise((resolve) => asked.set(requestId, resolve))
  out({
    type: 'control_request',
    request_id: requestId,
    request: {
      subtype: 'can_use_tool',
      tool_name: call.tool,
      display_name: call.tool,
      input: call.input,
      tool_use_id: toolUseId,
      ...(call.description ? { description: call.description } : {}),
    },
  })
  const response = await Promise.race([answered, aborted])
  asked.delete(requestId)
  if (response === null || mine.aborted) {
    // An interrupt withdraws the question.
    out({ type: 'control_cancel_request', request_id: requestId })
    return
  }
  const answer =
    response.subtype === 'success' ? response.response : { behavior: 'deny', message: response.error }
  const allowed = answer.behavior === 'allow'
  out({
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: toolUseId,
          is_error: !allowed,
          content: allowed
            ? `ran ${call.tool} ${JSON.stringify(answer.updatedInput ?? call.input)}`
            : answer.message,
        },
      ],
    },
    session_id: sessionId,
  })
}

process.on('SIGINT', () => {
  // As the real CLI: a turn under way ends as interrupted, then the process exits.
  if (turn) turn.abort()
  setImmediate(() => process.exit(0))
})
