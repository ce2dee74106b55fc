// The hook token: what the HTTP hooks `switchboard install claude --hooks` writes into Claude Code's
// settings.json show the hub. That file is no secret store, so the token opens the hook route only
// (core/api/routes.ts `hook`), never the admin API. Made on first use, mode 0600, in the home.
import { ensureHome, paths } from './config.js'
import { newSecret } from './ids.js'
import { readOrMakeSecretFile } from './secret-file.js'

export function readHookToken(home: string): string {
  ensureHome(home)
  return readOrMakeSecretFile(paths.hookToken(home), () => `${newSecret('sbh')}\n`).trim()
}
