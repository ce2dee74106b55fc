// Codex's config.toml as `install codex --hooks` leaves it: Switchboard's PermissionRequest hook in
// once, after the person's own, with Codex's trust recorded under the hook's key; `--remove` takes out
// exactly that and its trust, keeps every other key, hook and trust, and moves the trust of the hooks
// after it to their new places (Codex keys trust by place).
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { addCodexHook, recordTrust, removeCodexHook, trustKey } from './codex-config.js'

let dir: string
let file: string
const target = { via: 'command', waitSeconds: 300 } as const

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'codex-config-'))
  file = join(dir, 'config.toml')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A person's config: a model, a provider, a hook of their own on the same event, trusted, a project. */
function theirs(): string {
  return `model = "o3"
approval_policy = "on-request"

[model_providers.local]
base_url = "http://127.0.0.1:8080/v1"
wire_api = "responses"

[[hooks.PermissionRequest]]
matcher = "Bash"

[[hooks.PermissionRequest.hooks]]
type = "command"
command = "audit-bash"

[hooks.state."${file}:permission_request:0:0"]
trusted_hash = "sha256:theirs"

[projects."/srv/my app"]
trust_level = "trusted"
`
}

type Config = {
  hooks: { PermissionRequest: { hooks: { command: string }[] }[]; state: Record<string, unknown> }
}
const read = () => parse(readFileSync(file, 'utf8')) as unknown as Config

it('adds the hook after the person’s own and records the trust under its key', () => {
  writeFileSync(file, theirs())
  const key = addCodexHook(file, target)
  expect(key).toBe(trustKey(file, 1))
  recordTrust(file, key, 'sha256:ours')
  const config = read()
  expect(config.hooks.PermissionRequest).toEqual([
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-bash' }] },
    {
      hooks: [{ type: 'command', command: 'switchboard hook PermissionRequest --agent codex', timeout: 330 }],
    },
  ])
  expect(config.hooks.state).toEqual({
    [trustKey(file, 0)]: { trusted_hash: 'sha256:theirs' },
    [key]: { trusted_hash: 'sha256:ours' },
  })
  // Owner-only: the file says which programs Codex runs unasked.
  expect(statSync(file).mode & 0o777).toBe(0o600)
  // A second install replaces the first in place.
  expect(addCodexHook(file, target)).toBe(key)
  expect(read().hooks.PermissionRequest).toHaveLength(2)
})

it('takes out the hook and its trust and leaves the rest of the config as it was', () => {
  writeFileSync(file, theirs())
  const before = read()
  recordTrust(file, addCodexHook(file, target), 'sha256:ours')
  expect(removeCodexHook(file)).toBe(1)
  expect(read()).toEqual(before)
  expect(removeCodexHook(file)).toBe(0)
})

it('moves the trust of a hook added after Switchboard’s to its new place, so Codex still runs it', () => {
  writeFileSync(file, theirs())
  recordTrust(file, addCodexHook(file, target), 'sha256:ours')
  // The person adds another hook after Switchboard's and trusts it.
  const config = readFileSync(file, 'utf8')
  writeFileSync(
    file,
    `${config}\n[[hooks.PermissionRequest]]\n[[hooks.PermissionRequest.hooks]]\ntype = "command"\ncommand = "later"\n`,
  )
  recordTrust(file, trustKey(file, 2), 'sha256:later')
  removeCodexHook(file)
  const after = read()
  expect(after.hooks.PermissionRequest.map((g) => g.hooks[0]?.command)).toEqual(['audit-bash', 'later'])
  expect(after.hooks.state).toEqual({
    [trustKey(file, 0)]: { trusted_hash: 'sha256:theirs' },
    [trustKey(file, 1)]: { trusted_hash: 'sha256:later' },
  })
})

it('leaves no empty hooks table behind in a config that had none', () => {
  writeFileSync(file, 'model = "o3"\n')
  recordTrust(file, addCodexHook(file, target), 'sha256:ours')
  removeCodexHook(file)
  expect(read()).toEqual({ model: 'o3' })
})

it('refuses a config that is a link, and one that is not TOML, saying which file', () => {
  const real = join(dir, 'real.toml')
  writeFileSync(real, 'model = "o3"\n')
  symlinkSync(real, file)
  expect(() => addCodexHook(file, target)).toThrow(/symbolic link/)
  expect(lstatSync(file).isSymbolicLink()).toBe(true)
  rmSync(file)
  writeFileSync(file, 'model = \n')
  expect(() => addCodexHook(file, target)).toThrow(`${file}: not valid TOML`)
})
