// Which Claude Code settings files hold Switchboard's hooks: recorded in the home at each install, so
// that `install claude --hooks --remove` without a project and `uninstall` take them out of every
// project they were put in, not only the user's own settings.
import { existsSync, readFileSync } from 'node:fs'
import * as z from 'zod'
import { ensureHome, paths } from '../core/config.js'
import { replacePrivateFile } from '../core/private-file.js'

const installsSchema = z.object({ files: z.array(z.string()) })

export function hookInstalls(home: string): string[] {
  const file = paths.hookInstalls(home)
  if (!existsSync(file)) return []
  try {
    return installsSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).files
  } catch {
    // A record that cannot be read lists nothing; the user's own settings are always looked at.
    return []
  }
}

function save(home: string, files: string[]): void {
  ensureHome(home)
  replacePrivateFile(paths.hookInstalls(home), `${JSON.stringify({ files }, null, 2)}\n`)
}

export function recordHookInstall(home: string, file: string): void {
  const files = hookInstalls(home)
  if (!files.includes(file)) save(home, [...files, file])
}

export function forgetHookInstall(home: string, file: string): void {
  const files = hookInstalls(home)
  if (files.includes(file))
    save(
      home,
      files.filter((f) => f !== file),
    )
}
