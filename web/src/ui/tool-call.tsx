// One tool call in the transcript: a shell command shows its command; an edit the file and a diff
// (removed lines "- " in red, added lines "+ " in green); a write the file and its content; Read, Grep,
// Glob and anything else the input, folded away. Which tool is which, for every agent's tools (Gemini
// CLI's run_shell_command, OpenCode's bash, …): src/core/readable-call.ts.
import { readableCall } from '../../../src/core/readable-call.ts'

function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** A short hint for a folded tool call: the file, pattern or URL it works on. */
function hint(input: Record<string, unknown>): string {
  for (const key of ['file_path', 'filePath', 'path', 'pattern', 'url', 'query', 'description']) {
    const v = input[key]
    if (typeof v === 'string' && v) return v.length > 80 ? `${v.slice(0, 77)}…` : v
  }
  return ''
}

/** A string's lines; none for an empty string, and no empty last line for a trailing newline. */
function linesOf(s: string): string[] {
  if (s === '') return []
  const lines = s.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

function Diff({ edit }: { edit: { old: string; new: string } }) {
  const removed = linesOf(edit.old)
  const added = linesOf(edit.new)
  return (
    <pre className="code diff">
      {removed.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move
        <span key={`-${i}`} className="del">
          {`- ${line}\n`}
        </span>
      ))}
      {added.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move
        <span key={`+${i}`} className="add">
          {`+ ${line}\n`}
        </span>
      ))}
      {removed.length === 0 && added.length === 0 ? '(no change)' : null}
    </pre>
  )
}

function Head({ name, path, extra }: { name: string; path: string; extra?: string }) {
  return (
    <div className="who">
      {name} <span className="path">{path}</span>
      {extra ? <span className="muted"> · {extra}</span> : null}
    </div>
  )
}

export function ToolCall({ name, input }: { name: string; input: Record<string, unknown> }) {
  const call = readableCall(name, input)
  if (call?.kind === 'shell') {
    const description = text(input.description)
    return (
      <div className="item tool">
        <div className="who">
          {name}
          {description ? ` · ${description}` : ''}
        </div>
        <pre className="code">$ {call.command}</pre>
      </div>
    )
  }
  if (call?.kind === 'edit') {
    const n = call.edits.length
    const extra = call.multi
      ? `${n} edit${n === 1 ? '' : 's'}`
      : call.everyOccurrence
        ? 'every occurrence'
        : undefined
    return (
      <div className="item tool">
        <Head name={name} path={call.path} extra={extra} />
        {call.edits.map((edit, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the edits never move
          <Diff key={i} edit={edit} />
        ))}
      </div>
    )
  }
  if (call?.kind === 'write') {
    return (
      <div className="item tool">
        <Head name={name} path={call.path} />
        <pre className="code">{call.content}</pre>
      </div>
    )
  }
  // Read, Grep, Glob and the rest: folded, with what they work on in the summary.
  const about = hint(input)
  return (
    <details className="item tool">
      <summary>
        <span className="who">{name}</span>
        {about ? <span className="path"> {about}</span> : null}
      </summary>
      <pre className="code">{JSON.stringify(input, null, 2)}</pre>
    </details>
  )
}
