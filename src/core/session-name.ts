// What a driven session is called where people look for it (the dashboard, a push on the phone): the
// title someone gave it, else its project (the folder's last part) and the start of its first prompt,
// else its id. Ids like `ses_k3…` tell two sessions apart for a program, not for a person. No Node
// imports: the page uses it too.

const PROMPT_SHOWN = 60

export interface Nameable {
  id: string
  cwd: string | null
  firstPrompt?: string | null
  title?: string | null
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

export function sessionName(s: Nameable): string {
  const title = s.title?.trim()
  if (title) return title
  const project = projectOf(s.cwd)
  const prompt = s.firstPrompt ? oneLine(s.firstPrompt, PROMPT_SHOWN) : ''
  if (project && prompt) return `${project}: ${prompt}`
  return project ?? (prompt || s.id)
}
