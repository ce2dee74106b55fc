// One tool call in the transcript: Bash shows its command; Edit and MultiEdit the file and a diff
// (removed lines "- " in red, added lines "+ " in green); Write the file and its content; Read, Grep,
// Glob and anything else the input, folded away.

function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** A short hint for a folded tool call: the file, pattern or URL it works on. */
function hint(input: Record<string, unknown>): string {
  for (const key of ['file_path', 'path', 'pattern', 'url', 'query', 'description']) {
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

function Diff({ edit }: { edit: Record<string, unknown> }) {
  const removed = linesOf(text(edit.old_string))
  const added = linesOf(text(edit.new_string))
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
  if (name === 'Bash') {
    const description = text(input.description)
    return (
      <div className="item tool">
        <div className="who">Bash{description ? ` · ${description}` : ''}</div>
        <pre className="code">$ {text(input.command)}</pre>
      </div>
    )
  }
  if (name === 'Edit') {
    return (
      <div className="item tool">
        <Head
          name={name}
          path={text(input.file_path)}
          extra={input.replace_all === true ? 'every occurrence' : undefined}
        />
        <Diff edit={input} />
      </div>
    )
  }
  if (name === 'MultiEdit') {
    const edits = (Array.isArray(input.edits) ? input.edits : []).filter(
      (e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !Array.isArray(e),
    )
    return (
      <div className="item tool">
        <Head
          name={name}
          path={text(input.file_path)}
          extra={`${edits.length} edit${edits.length === 1 ? '' : 's'}`}
        />
        {edits.map((edit, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the edits never move
          <Diff key={i} edit={edit} />
        ))}
      </div>
    )
  }
  if (name === 'Write') {
    return (
      <div className="item tool">
        <Head name={name} path={text(input.file_path)} />
        <pre className="code">{text(input.content)}</pre>
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
