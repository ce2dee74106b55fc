// `switchboard uninstall` takes Switchboard out of every agent it was installed into, not Claude
// Code's alone: the Codex and Gemini CLI hooks and the OpenCode plugin install wrote, in the user's
// config and in each project they were put in, leaving the person's own; and `doctor` says where they are.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runCli, TestHome } from './helpers/home.js'

let home: TestHome
let root: string
let env: Record<string, string>
const codexConfig = () => join(root, 'home', '.codex', 'config.toml')
const geminiSettings = () => join(root, 'home', '.gemini', 'settings.json')

beforeEach(async () => {
  home = await TestHome.create()
  root = mkdtempSync(join(tmpdir(), 'uninstall-agents-'))
  mkdirSync(join(root, 'home', '.codex'), { recursive: true })
  mkdirSync(join(root, 'home', '.gemini'), { recursive: true })
  env = {
    HOME: join(root, 'home'),
    CODEX_HOME: join(root, 'home', '.codex'),
    XDG_CONFIG_HOME: join(root, 'home', '.config'),
    SWITCHBOARD_HOME: home.dir,
    SWITCHBOARD_PORT: String(home.port),
    // No codex on PATH: install writes the hook and says it is not trusted yet.
    PATH: '/usr/bin:/bin',
  }
  // The person's own hooks, which must stay.
  writeFileSync(
    codexConfig(),
    '[[hooks.PermissionRequest]]\n[[hooks.PermissionRequest.hooks]]\ntype = "command"\ncommand = "my-own-codex-hook"\n',
  )
  writeFileSync(
    geminiSettings(),
    JSON.stringify({
      hooks: { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: 'my-own-gemini-hook' }] }] },
    }),
  )
})

afterEach(async () => {
  await home.cleanup()
  rmSync(root, { recursive: true, force: true })
})

async function ok(...args: string[]): Promise<string> {
  const run = await runCli(args, env)
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return run.stdout
}

it('takes the Codex and Gemini CLI hooks out of the user’s config and every project they went into, and keeps the person’s own', {
  timeout: 60_000,
}, async () => {
  const project = join(root, 'project')
  mkdirSync(project)
  await ok('install', 'codex', '--hooks')
  await ok('install', 'codex', '--hooks', '--project', project)
  await ok('install', 'gemini', '--hooks')
  await ok('install', 'gemini', '--hooks', '--project', project)
  await ok('install', 'opencode')
  await ok('install', 'opencode', '--project', project)
  const opencodePlugin = join(root, 'home', '.config', 'opencode', 'plugin', 'switchboard.js')
  const projectOpencode = join(project, '.opencode', 'plugin', 'switchboard.js')
  expect(existsSync(opencodePlugin) && existsSync(projectOpencode)).toBe(true)
  const projectCodex = join(project, '.codex', 'config.toml')
  const projectGemini = join(project, '.gemini', 'settings.json')
  for (const file of [codexConfig(), projectCodex, geminiSettings(), projectGemini])
    expect(readFileSync(file, 'utf8')).toContain('switchboard')

  const doctor = await runCli(['doctor'], env)
  expect(doctor.stdout).toContain(`Codex: its hook installed in ${codexConfig()}, ${projectCodex}`)
  expect(doctor.stdout).toContain(`Gemini CLI: its hook installed in ${geminiSettings()}, ${projectGemini}`)
  expect(doctor.stdout).toContain(`OpenCode: its plugin installed in ${opencodePlugin}, ${projectOpencode}`)

  const out = await ok('uninstall')
  expect(out).toContain(`Codex hook: taken out of ${codexConfig()}, ${projectCodex}`)
  expect(out).toContain(`Gemini CLI hook: taken out of ${geminiSettings()}, ${projectGemini}`)
  expect(out).toContain(`OpenCode plugin: taken out of ${opencodePlugin}, ${projectOpencode}`)
  expect(existsSync(opencodePlugin) || existsSync(projectOpencode)).toBe(false)
  for (const file of [codexConfig(), projectCodex, geminiSettings(), projectGemini])
    expect(readFileSync(file, 'utf8')).not.toContain('switchboard')
  expect(readFileSync(codexConfig(), 'utf8')).toContain('my-own-codex-hook')
  expect(readFileSync(geminiSettings(), 'utf8')).toContain('my-own-gemini-hook')

  const again = await ok('uninstall')
  expect(again).toContain('Codex hook: none in')
  expect(again).toContain('Gemini CLI hook: none in')
  expect(again).toContain('OpenCode plugin: none in')
})

it('forgets a project taken out with install --remove, so uninstall does not look there again', {
  timeout: 60_000,
}, async () => {
  const project = join(root, 'gone')
  mkdirSync(project)
  await ok('install', 'gemini', '--hooks', '--project', project)
  await ok('install', 'gemini', '--hooks', '--project', project, '--remove')
  const out = await ok('uninstall')
  expect(out).toContain(`Gemini CLI hook: none in ${geminiSettings()}\n`)
})
