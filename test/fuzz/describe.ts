// Inputs as someone reproduces them: a curl command, a printf into /dev/tcp, a list of frames. Secrets
// become shell variables; long bodies are shown by their ends and size.
import type { Frame, HttpInput, HubSession, NdjsonCase } from './inputs.js'

export type Secrets = Record<string, string>

/** Secrets as shell variables, spliced into the single-quoted strings they stand in. */
const hide = (s: string, secrets: Secrets) =>
  Object.entries(secrets).reduce(
    (t, [name, secret]) => (secret ? t.replaceAll(secret, `'"$${name}"'`) : t),
    s,
  )

/** A readable excerpt: whole when short, else both ends and the size. */
export function preview(bytes: Buffer | string, max = 120): string {
  const s = typeof bytes === 'string' ? bytes : bytes.toString('latin1')
  if (s.length <= max) return JSON.stringify(s)
  return `${JSON.stringify(s.slice(0, max - 40))}…${JSON.stringify(s.slice(-30))} (${s.length} B)`
}

/** Single-quoted for a shell; a long run of one letter or digit is written as a command making it. */
const shellQuote = (s: string) =>
  `'${s
    .replaceAll("'", `'\\''`)
    .replace(
      /([A-Za-z0-9])\1{49,}/g,
      (run, c) => `'"$(head -c ${run.length} </dev/zero | tr '\\0' ${c})"'`,
    )}'`
const printable = (b: Buffer) => b.every((c) => c >= 0x20 && c < 0x7f)

export function describeHttp(input: HttpInput, secrets: Secrets): string {
  const parts = [
    'curl -sS --path-as-is',
    `-X ${input.method}`,
    `"http://127.0.0.1:$PORT"${shellQuote(input.path)}`,
  ]
  for (const [name, value] of Object.entries(input.headers))
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`)
  if (input.chunked) parts.push(`-H 'transfer-encoding: chunked'`)
  if (input.body.length > 0 && input.body.length <= 200 && printable(input.body))
    parts.push(`--data-binary ${shellQuote(input.body.toString())}`)
  else if (input.body.length > 0) parts.push(`--data-binary @body  # ${preview(input.body)}`)
  return hide(parts.join(' '), secrets)
}

/** Bash's printf (which reads \r, \n and \xHH) into /dev/tcp, then what comes back. */
export function describeRaw(bytes: Buffer, secrets: Secrets): string {
  let escaped = ''
  for (const c of bytes.subarray(0, 400)) {
    if (c === 0x0d) escaped += '\\r'
    else if (c === 0x0a) escaped += '\\n'
    else if (c === 0x25) escaped += '%%'
    else if (c === 0x5c) escaped += '\\\\'
    else if (c >= 0x20 && c < 0x7f && c !== 0x27) escaped += String.fromCharCode(c)
    else escaped += `\\x${c.toString(16).padStart(2, '0')}`
  }
  const more = bytes.length > 400 ? ` # first 400 of ${bytes.length} bytes` : ''
  const send = `exec 3<>/dev/tcp/127.0.0.1/$PORT; printf '${escaped}' >&3; timeout 1 cat <&3${more}`
  return hide(send, secrets)
}

const describeFrame = (f: Frame) =>
  'text' in f
    ? preview(f.text, 80)
    : `${f.binary ? 'binary' : 'text'} bytes ${f.bytes.toString('hex').slice(0, 60)}`

export function describeSession(s: HubSession): string {
  const list = (frames: Frame[]) => `[${frames.map(describeFrame).join(', ')}]`
  const hello = s.hello ? ` hello ${JSON.stringify(s.hello)}` : ''
  return `ws /hub: before ${list(s.before)}${hello} after ${list(s.after)} then ${s.end}`
}

export function describeNdjson(c: NdjsonCase): string {
  const lines = c.lines.map((l) => preview(l, 60)).join(', ')
  return `lines [${lines}] cut at ${c.cuts.join(',')} as ${c.strings ? 'strings' : 'buffers'}, max ${c.maxLineBytes}`
}
