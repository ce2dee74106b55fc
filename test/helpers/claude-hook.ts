// A Claude Code hook as the installed hooks send it: the hook's input POSTed down the home's socket
// (curl --unix-socket, see src/cli/claude-settings.ts), no token; the hook's JSON output back.
import { request } from 'node:http'
import { paths } from '../../src/core/config.js'

export interface HookHome {
  dir: string
  port: number
}

export interface HookOptions {
  /** The hook's own timeout as installed (x-switchboard-timeout). */
  timeout?: number
  signal?: AbortSignal
  headers?: Record<string, string>
}

/** What a hook's input carries besides the event's own fields. */
export function hookInput(
  event: string,
  session: string,
  cwd: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: session,
    transcript_path: `/tmp/${session}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  }
}

/** Posts a hook's input to the hub down its socket; resolves with the status and the JSON answer. */
export function postHook(
  home: HookHome,
  event: string,
  body: unknown,
  options: HookOptions = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: paths.hubSocket(home.dir, home.port),
        method: 'POST',
        path: `/api/claude-hooks/${event}`,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...(options.timeout ? { 'x-switchboard-timeout': String(options.timeout) } : {}),
          ...options.headers,
        },
        signal: options.signal,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const answer = Buffer.concat(chunks).toString('utf8')
          let json: Record<string, unknown> = {}
          try {
            json = answer ? (JSON.parse(answer) as Record<string, unknown>) : {}
          } catch {
            json = { text: answer }
          }
          resolve({ status: res.statusCode ?? 0, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(text)
  })
}
