// Preloaded with `node --import <this file>` (NODE_OPTIONS) when SWITCHBOARD_TEST_IMPORTS names a file:
// every module the process loads is appended to that file, one URL a line, as it is loaded. ES modules
// are seen by a resolve hook (module.register); CommonJS ones, which a package may require() without
// the ES loader seeing them, by require.cache when the process exits. A test reads the file to say
// what a command never loaded (imports.ts).
import { appendFileSync } from 'node:fs'
import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'

const file = process.env.SWITCHBOARD_TEST_IMPORTS
if (file) {
  register('./record-imports-hooks.mjs', import.meta.url, { data: { file } })
  const cache = createRequire(import.meta.url).cache
  process.on('exit', () => {
    const urls = Object.keys(cache).map((path) => pathToFileURL(path).href)
    if (urls.length) appendFileSync(file, `${urls.join('\n')}\n`)
  })
}
