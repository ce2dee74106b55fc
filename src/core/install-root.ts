// Where this installation's own files are. The code runs from three layouts: TypeScript sources
// (tests, tsx), the file-per-module build tsc writes to dist/, and the bundle in dist/cli (one entry
// and its chunks, where a module's code may end up in any of them). A path taken relative to the
// module's own file holds in one layout only, so files are found from the package's root instead.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function packageRootAbove(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${file}`)
  }
}

/** The folder holding this Switchboard's package.json (a checkout, or the installed package). */
export const PACKAGE_ROOT = packageRootAbove(fileURLToPath(import.meta.url))

/** True when this code runs from its TypeScript sources rather than a build. */
const FROM_SOURCES = import.meta.url.endsWith('.ts')

/** The `switchboard` command's entry, as this code runs: the sources' or the build's. */
export const CLI_ENTRY = FROM_SOURCES
  ? join(PACKAGE_ROOT, 'src/cli/main.ts')
  : join(PACKAGE_ROOT, 'dist/cli/main.js')
