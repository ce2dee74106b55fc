// Where Claude Code keeps a session's transcript (docs/transcript-receipts.md):
// `<config dir>/projects/<cwd, every character not a-z A-Z 0-9 turned into ->/<session id>.jsonl`, the
// config dir being CLAUDE_CONFIG_DIR or ~/.claude. A folder name longer than 200 characters is cut
// there and given a hash suffix whose function is not ours to copy: such folders are found by prefix.
import { readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

const MAX_FOLDER = 200

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')
}

export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-')
}

/** The project folders that may hold this cwd's transcripts (one, unless the name was cut). */
export function projectFolders(cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const projects = join(configDir(env), 'projects')
  const name = projectFolderName(cwd)
  if (name.length <= MAX_FOLDER) return [join(projects, name)]
  const prefix = `${name.slice(0, MAX_FOLDER)}-`
  try {
    return readdirSync(projects)
      .filter((d) => d.startsWith(prefix))
      .map((d) => join(projects, d))
  } catch {
    return []
  }
}

/**
 * The transcripts a channel reads: its session's file when the session id is known (Claude Code
 * gives its MCP servers CLAUDE_CODE_SESSION_ID, the resumed one under --resume), whether written yet
 * or not: another session in the same folder may carry the same events and must never confirm
 * ours. Without an id (an older CLI), every transcript in the folder written since `since`.
 */
export function transcriptFiles(
  cwd: string,
  sessionId: string | undefined,
  since: number,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const files: string[] = []
  for (const folder of projectFolders(cwd, env)) {
    if (sessionId) {
      files.push(join(folder, `${sessionId}.jsonl`))
      continue
    }
    let names: string[] = []
    try {
      names = readdirSync(folder).filter((n) => n.endsWith('.jsonl'))
    } catch {
      continue
    }
    for (const n of names) {
      try {
        if (statSync(join(folder, n)).mtimeMs >= since) files.push(join(folder, n))
      } catch {
        // gone meanwhile
      }
    }
  }
  return files
}
