// What a session is called where people look for it (chat prompts and notices, thread titles, the
// dashboard, a push on the phone, the CLI): its project and a short title, "api · fix the flaky test".
// The title is the one someone gave it, else the start of its first prompt (Claude Code's own markup
// skipped), else its branch; the project is its repository's name, else its folder's last part. Ids
// like `ses_k3…` or a session's UUID tell two sessions apart for a program, not for a person. No Node
// imports: the page uses it too.

const PROMPT_SHOWN = 60

export interface Nameable {
  id: string
  cwd: string | null
  firstPrompt?: string | null
  /** The name a person gave it, or the title taken from its first prompt. */
  title?: string | null
  /** The project's name when it is not the folder's last part (the repository's name). */
  project?: string | null
  branch?: string | null
}

/** The folder's last part: `/home/ann/work/api/` → `api`. */
export function projectOf(cwd: string | null): string | null {
  const parts = (cwd ?? '').split(/[/\\]+/).filter(Boolean)
  return parts.at(-1) ?? null
}

/** `text` on one line, at most `max` characters, cut with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat
}

/**
 * A title from what a person typed: Claude Code's `<system-reminder>` blocks left out, its other
 * markup (`<command-name>/review</command-name>`) read as its text; null when nothing is left.
 */
export function promptTitle(prompt: string): string | null {
  const text = prompt
    .replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/g, ' ')
    .replace(/<\/?[a-z][a-z0-9-]*(\s[^>]*)?>/gi, ' ')
  const title = oneLine(text, PROMPT_SHOWN)
  return title || null
}

export function sessionName(s: Nameable): string {
  const project = s.project?.trim() || projectOf(s.cwd)
  const title =
    s.title?.trim() || (s.firstPrompt ? promptTitle(s.firstPrompt) : null) || s.branch?.trim() || null
  if (project && title) return `${project} · ${title}`
  return project ?? title ?? s.id
}
