// One tool call in the transcript: Bash shows its command, Edit/Write the file and the new content,
// anything else its input as JSON, folded away.

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
  if (name === 'Edit' || name === 'Write' || name === 'MultiEdit') {
    const edits = Array.isArray(input.edits) ? input.edits : []
    const content =
      name === 'Write'
        ? text(input.content)
        : name === 'Edit'
          ? text(input.new_string)
          : edits.map((e) => text((e as Record<string, unknown> | null)?.new_string)).join('\n⋯\n')
    return (
      <div className="item tool">
        <div className="who">
          {name} <span className="path">{text(input.file_path)}</span>
        </div>
        <pre className="code">{content}</pre>
      </div>
    )
  }
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
