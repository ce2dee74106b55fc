// Which files hold Switchboard's hooks, per agent: recorded in the home at each install, so that
// `install <agent> --hooks --remove` without a project and `uninstall` take them out of every project
// they were put in, not only the user's own settings.
import { existsSync, readFileSync } from 'node:fs'
import * as z from 'zod'
import type { Agent } from '../core/agents.js'
import { ensureHome, paths } from '../core/config.js'
import { replacePrivateFile } from '../core/private-file.js'

const installsSchema = z.object({ files: z.array(z.string()) })

export function hookInstalls(home: string, agent: Agent): string[] {
  const file = paths.hookInstalls(home, agent)
  if (!existsSync(file)) return []
  try {
    return installsSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).files
  } catch {
    // A record that cannot be read lists nothing; the user's own settings are always looked at.
    return []
  }
}

function save(home: string, agent: Agent, files: string[]): void {
  ensureHome(home)
  replacePrivateFile(paths.hookInstalls(home, agent), `${JSON.stringify({ files }, null, 2)}\n`)
}

export function recordHookInstall(home: string, agent: Agent, file: string): void {
  const files = hookInstalls(home, agent)
  if (!files.includes(file)) save(home, agent, [...files, file])
}

export function forgetHookInstall(home: string, agent: Agent, file: string): void {
  const files = hookInstalls(home, agent)
  if (files.includes(file))
    save(
      home,
      agent,
      files.filter((f) => f !== file),
    )
}
