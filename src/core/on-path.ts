// A program on PATH, found the way a shell would find it, without starting one.
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** The first executable `name` in PATH's folders; null when there is none. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return null
}
