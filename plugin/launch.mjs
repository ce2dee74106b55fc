// Starts Switchboard for the plugin, which may be all the user installed: the `switchboard` on PATH
// when there is one, otherwise the checkout that brought the plugin. Plain JavaScript without
// dependencies, so that it runs wherever Node does; stdout is the MCP protocol and stays untouched.
// When it cannot start Switchboard, it says why on stderr (which Claude Code keeps out of sight) and
// in the home's logs/plugin-launch.json, where `switchboard doctor` finds it; a start takes it away.
import { spawn } from 'node:child_process'
import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { basename, delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)

/** The Switchboard home the command would use: --home, SWITCHBOARD_HOME, or ~/.switchboard. */
function home() {
  const flag = args.findIndex((a) => a === '--home' || a.startsWith('--home='))
  const given = flag === -1 ? undefined : args[flag].includes('=') ? args[flag].slice(7) : args[flag + 1]
  return resolve(given ?? process.env.SWITCHBOARD_HOME ?? join(homedir(), '.switchboard'))
}

/** Where a failed start is recorded; src/cli/doctor-checks.ts reads it (pluginLaunchLog). */
const record = join(home(), 'logs', 'plugin-launch.json')

/**
 * An executable file named `switchboard` in a PATH folder. Not on Windows, where npm's shims (.cmd)
 * need a shell to run: there the checkout is used.
 */
function onPath() {
  if (process.platform === 'win32') return undefined
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue // the working folder: a project must not choose what runs
    const file = join(dir, 'switchboard')
    try {
      accessSync(file, constants.X_OK)
      if (statSync(file).isFile()) return file
    } catch {
      // not in this folder
    }
  }
  return undefined
}

/**
 * The folders that may hold the Switchboard checkout this plugin came from: the one around it
 * (`--plugin-dir <checkout>/plugin`), and, for a copy a marketplace install put in
 * <plugins>/cache/<marketplace>/<plugin>/<version>, the folder that marketplace was added from.
 */
function checkouts() {
  const folders = [resolve(here, '..')]
  const cache = resolve(here, '../../..')
  if (basename(cache) === 'cache') {
    try {
      const known = JSON.parse(readFileSync(join(dirname(cache), 'known_marketplaces.json'), 'utf8'))
      const entry = known[basename(resolve(here, '../..'))]
      const folder = entry?.installLocation ?? entry?.source?.path
      if (typeof folder === 'string') folders.push(folder)
    } catch {
      // no marketplace on record: only the folder around the plugin
    }
  }
  return folders
}

/** The built command of a Switchboard checkout (`npm ci` builds it), if `folder` holds one. */
function built(folder) {
  try {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
    if (pkg.name !== 'switchboard') return undefined
    const main = join(folder, 'dist/cli/main.js')
    return statSync(main).isFile() ? main : undefined
  } catch {
    return undefined
  }
}

/**
 * A JavaScript entry runs in this process: no second Node to start, and Claude Code stays the parent
 * that the channel reads its command line from (src/channel/rung.ts).
 */
async function runHere(main) {
  started()
  process.argv[1] = main
  try {
    await import(pathToFileURL(main).href)
  } catch (err) {
    fail(
      `could not start ${main}: ${err.message.split('\n')[0]}`,
      `run \`npm ci\` in ${resolve(dirname(main), '../..')} with this Node (${process.version}); Switchboard needs Node 20.19 or later`,
    )
  }
}

/** Anything else runs as a child on this process's own stdin, stdout and stderr. */
function runChild(command) {
  started()
  const child = spawn(command, args, { stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (err) =>
    fail(`could not start ${command}: ${err.message}`, `check that ${command} runs: ${command} --version`),
  )
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1)
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  })
}

/** An earlier failure no longer holds: doctor stops reporting it. */
function started() {
  try {
    rmSync(record, { force: true })
  } catch {
    // nothing recorded, or nothing that can be changed: the start goes on
  }
}

function fail(reason, fix) {
  process.stderr.write(`switchboard plugin: ${reason}\n`)
  try {
    mkdirSync(dirname(record), { recursive: true, mode: 0o700 })
    writeFileSync(record, `${JSON.stringify({ at: new Date().toISOString(), reason, fix })}\n`, { mode: 0o600 })
  } catch {
    // the reason is on stderr still
  }
  process.exit(1)
}

const path = onPath()
const pathMain = path && realpathSync(path)
if (pathMain && /\.[cm]?js$/.test(pathMain)) await runHere(pathMain)
else if (path) runChild(path)
else {
  const folders = checkouts()
  const main = folders.map(built).find(Boolean)
  if (main) await runHere(main)
  else
    fail(
      `no Switchboard to start: none on PATH, and no built checkout in ${folders.join(' or ')} ` +
        '(run `npm ci` in the checkout, or put `switchboard` on PATH with `npm link`)',
      `run \`npm ci\` in the Switchboard checkout the plugin came from (${folders.at(-1)}), or put switchboard on PATH with \`npm link\``,
    )
}
