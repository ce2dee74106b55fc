// Switchboard taken out of Claude Code's configuration for `switchboard uninstall`: the plugin, its
// marketplace entry and MCP server entries that run Switchboard. With Claude Code on PATH its own
// commands do it (`claude plugin uninstall`, `claude plugin marketplace remove`, `claude mcp remove`);
// without, the entries are taken out of the files where those commands put them.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { findClaude } from '../claude/process.js'

/** The plugin's name, and the marketplace's (.claude-plugin/marketplace.json). */
const PLUGIN = 'switchboard'
const MARKETPLACE = 'switchboard'

export interface Step {
  step: string
  /** Something was changed (false: there was nothing to do). */
  changed: boolean
  detail: string
}

type Json = Record<string, unknown>

function readJson(file: string): Json | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json
  } catch {
    return null
  }
}

function writeJson(file: string, value: Json): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})

/** Runs `claude …`; rejects with its own last words when it fails. */
async function claude(bin: string, args: string[], cwd?: string): Promise<void> {
  try {
    await promisify(execFile)(bin, args, { cwd, timeout: 60_000 })
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string }
    const said = `${e.stderr ?? ''}\n${e.stdout ?? ''}`.trim().split('\n').at(-1)
    throw new Error(`claude ${args.join(' ')}: ${said || e.message}`)
  }
}

function claudeBin(): string | null {
  try {
    return findClaude()
  } catch {
    return null
  }
}

export class ClaudeConfig {
  /** ~/.claude: settings.json, plugins/. */
  private readonly dir: string
  private readonly plugins: string
  /** ~/.claude.json: MCP servers, user-wide and per project. */
  private readonly userFile: string

  constructor(
    home = homedir(),
    private readonly bin: string | null = claudeBin(),
  ) {
    this.dir = join(home, '.claude')
    this.plugins = join(this.dir, 'plugins')
    this.userFile = join(home, '.claude.json')
  }

  /** How the changes are made: Claude Code's commands, or editing its files. */
  get how(): string {
    return this.bin ? 'with claude' : 'in its files (no claude on PATH)'
  }

  /** Every installation of the plugin (`switchboard@<marketplace>`), in every scope it was installed. */
  async removePlugin(): Promise<Step> {
    const file = join(this.plugins, 'installed_plugins.json')
    const installed = readJson(file)
    const plugins = obj(installed?.plugins)
    const keys = Object.keys(plugins).filter((key) => key.startsWith(`${PLUGIN}@`))
    if (!keys.length) return { step: 'plugin', changed: false, detail: 'not installed' }
    // Where Claude Code records the plugin enabled: the user's settings, and a project's for its scope.
    const settingsFiles = [
      this.settingsFile,
      ...keys.flatMap((key) =>
        ((Array.isArray(plugins[key]) ? plugins[key] : []) as Json[])
          .map((entry) => entry.projectPath)
          .filter((path): path is string => typeof path === 'string')
          .flatMap((path) => [
            join(path, '.claude', 'settings.json'),
            join(path, '.claude', 'settings.local.json'),
          ]),
      ),
    ]
    const prune = [...new Set(settingsFiles)].map((file) =>
      dropEmptied(file, [['enabledPlugins']], (key) => keys.includes(key)),
    )
    for (const key of keys) {
      const entries = (Array.isArray(plugins[key]) ? plugins[key] : []) as Json[]
      if (this.bin) {
        for (const entry of entries.length ? entries : [{ scope: 'user' }]) {
          const scope = typeof entry.scope === 'string' ? entry.scope : 'user'
          const cwd = typeof entry.projectPath === 'string' ? entry.projectPath : undefined
          await claude(this.bin, ['plugin', 'uninstall', key, '--scope', scope], cwd)
        }
      } else {
        for (const entry of entries)
          if (typeof entry.installPath === 'string' && this.inPlugins(entry.installPath))
            rmSync(entry.installPath, { recursive: true, force: true })
        delete plugins[key]
        writeJson(file, { ...installed, plugins })
        this.editSettings((s) => delete obj(s.enabledPlugins)[key])
      }
    }
    for (const done of prune) done()
    return { step: 'plugin', changed: true, detail: `${keys.join(', ')} uninstalled ${this.how}` }
  }

  /** The marketplace entry `claude plugin marketplace add <checkout>` made. */
  async removeMarketplace(): Promise<Step> {
    const file = join(this.plugins, 'known_marketplaces.json')
    const known = readJson(file)
    const declared = Object.hasOwn(obj(this.settings()?.extraKnownMarketplaces), MARKETPLACE)
    if (!Object.hasOwn(known ?? {}, MARKETPLACE) && !declared)
      return { step: 'marketplace', changed: false, detail: 'not added' }
    const prune = dropEmptied(this.settingsFile, [['extraKnownMarketplaces']], (key) => key === MARKETPLACE)
    if (this.bin) await claude(this.bin, ['plugin', 'marketplace', 'remove', MARKETPLACE])
    else {
      if (known) {
        delete known[MARKETPLACE]
        writeJson(file, known)
      }
      this.editSettings((s) => delete obj(s.extraKnownMarketplaces)[MARKETPLACE])
      // A marketplace added from a repository is cloned here; its plugin's copies are cached here.
      for (const folder of ['marketplaces', 'cache'])
        rmSync(join(this.plugins, folder, MARKETPLACE), { recursive: true, force: true })
    }
    prune()
    return { step: 'marketplace', changed: true, detail: `${MARKETPLACE} removed ${this.how}` }
  }

  /**
   * MCP servers that run Switchboard (`switchboard channel`, `switchboard mcp`, or node on its
   * main.js), user-wide and per project (the local scope), as `claude mcp add` wrote them.
   */
  async removeMcpServers(): Promise<Step> {
    const config = readJson(this.userFile)
    const found: { name: string; scope: 'user' | 'local'; project?: string }[] = []
    for (const name of Object.keys(obj(config?.mcpServers)).filter((n) =>
      runsSwitchboard(obj(config?.mcpServers)[n]),
    ))
      found.push({ name, scope: 'user' })
    for (const [project, settings] of Object.entries(obj(config?.projects))) {
      const servers = obj(obj(settings).mcpServers)
      for (const name of Object.keys(servers).filter((n) => runsSwitchboard(servers[n])))
        found.push({ name, scope: 'local', project })
    }
    if (!found.length) return { step: 'MCP servers', changed: false, detail: 'none runs Switchboard' }
    const ours = new Set(found.map((s) => s.name))
    const prune = dropEmptied(
      this.userFile,
      found.map((s) => (s.project ? ['projects', s.project, 'mcpServers'] : ['mcpServers'])),
      (name) => ours.has(name),
    )
    if (this.bin) {
      for (const s of found) await claude(this.bin, ['mcp', 'remove', s.name, '--scope', s.scope], s.project)
    } else if (config) {
      for (const s of found) {
        const holder = s.project ? obj(obj(config.projects)[s.project]) : config
        delete obj(holder.mcpServers)[s.name]
      }
      writeJson(this.userFile, config)
    }
    prune()
    const list = found.map((s) => `${s.name} (${s.project ? `local, ${s.project}` : 'user'})`).join(', ')
    return { step: 'MCP servers', changed: true, detail: `removed ${list} ${this.how}` }
  }

  private inPlugins(path: string): boolean {
    const inside = relative(this.plugins, path)
    return inside !== '' && !inside.startsWith('..')
  }

  private get settingsFile(): string {
    return join(this.dir, 'settings.json')
  }

  private settings(): Json | null {
    return readJson(this.settingsFile)
  }

  private editSettings(edit: (settings: Json) => void): void {
    const file = this.settingsFile
    if (!existsSync(file)) return
    const settings = this.settings()
    if (!settings) return
    edit(settings)
    writeJson(file, settings)
  }
}

/**
 * Objects in a JSON file (each a path of keys) that hold an entry of Switchboard's now (`ours`
 * names one); the function returned, called once they are taken out (by Claude Code's commands or
 * by hand), removes each of them that was left empty. One that also held the person's entries, or
 * was empty before, is never Switchboard's to remove.
 */
function dropEmptied(file: string, paths: string[][], ours: (key: string) => boolean): () => void {
  const at = (json: unknown, path: string[]) => path.reduce<unknown>((v, key) => obj(v)[key], json)
  const before = readJson(file)
  const held = paths.filter((path) => Object.keys(obj(at(before, path))).some(ours))
  return () => {
    if (!held.length) return
    const after = readJson(file)
    if (!after) return
    let changed = false
    for (const path of held) {
      const holder = obj(at(after, path.slice(0, -1)))
      const name = path.at(-1) as string
      const value = holder[name]
      if (value && typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).length) {
        delete holder[name]
        changed = true
      }
    }
    if (changed) writeJson(file, after)
  }
}

/** An MCP server entry whose command line runs Switchboard's channel or its driver. */
function runsSwitchboard(entry: unknown): boolean {
  const { command, args } = obj(entry)
  const words = [command, ...(Array.isArray(args) ? args : [])].filter(
    (w) => typeof w === 'string',
  ) as string[]
  return words.some((w) => /switchboard/.test(w)) && words.some((w) => w === 'channel' || w === 'mcp')
}
