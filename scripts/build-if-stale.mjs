// `npm start`'s prestart and `npm test`'s pretest: builds dist/ only when something it is built from
// changed since the last complete build, so that starting the hub again, or testing right after
// `npm ci` (which builds), does not take a build's time. Plain JavaScript: it runs before anything is
// built.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What the build reads. A folder counts with its own time too: a file removed changes it. */
const INPUTS = [
  'src',
  'web',
  'scripts/bundle.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
]
/** What a complete build writes; the dashboard's page comes last, after the TypeScript build. */
const OUTPUTS = ['dist/cli/main.js', 'dist/web/index.html']

function newest(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

function built(path) {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

const changed = Math.max(...INPUTS.map(newest))
const lastBuild = Math.min(...OUTPUTS.map(built))
if (lastBuild > 0 && lastBuild >= changed) {
  process.stderr.write('dist/ is up to date (npm run build builds it again)\n')
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
  process.exit(build.status ?? 1)
}
