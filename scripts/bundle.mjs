// The build's last step: `switchboard` as one entry file and the chunks its commands load when they
// run (dist/cli/main.js, dist/cli/chunks/), written over the entry tsc emitted. On Node 20 every ES
// module costs a resolve, a read and a compile before any code runs, and a hub loaded about 400
// files: most of its start-up, and of every CLI call's. The libraries inlined are plain JavaScript
// with no files of their own to find at run time; the rest (native code, worker threads, the chat
// platforms' large clients, loaded only with their bridge) stay packages, imported as they are.
// Plain JavaScript: it runs before anything is built.
import { rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { build } from 'esbuild'

/**
 * Packages inlined into the bundle (a subpath of one counts as the package), with what they import
 * in turn: our own code imports these, and they are plain JavaScript.
 */
const INLINED = new Set(['zod', 'hono', '@hono/node-server', 'commander', '@modelcontextprotocol/sdk', 'pino', 'ws'])
/** Never inlined, whoever imports them: native code, and ws's optional native helpers. */
const NEVER = new Set(['better-sqlite3', 'bufferutil', 'utf-8-validate'])

function packageOf(specifier) {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

const keepOthersExternal = {
  name: 'inline-only-some-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true }
      const name = packageOf(args.path)
      if (NEVER.has(name)) return { external: true }
      const fromInlined = args.importer.includes('/node_modules/')
      return INLINED.has(name) || fromInlined ? undefined : { external: true }
    })
  },
}

/**
 * Our sources' `import { z } from 'zod'`, bundled as `import * as z from 'zod'`: the same object to
 * the code, but esbuild keeps every export of a namespace reached through a named import (zod's
 * `z`), each of zod's 40-odd locales among them (750 kB, loaded by every command that validates
 * anything), and of a namespace imported as such only the members used (230 kB). Any other import of
 * zod's `z` stops the build, so that the whole of zod does not come back unnoticed.
 */
const zodAsNamespace = {
  name: 'zod-as-namespace',
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined
      const source = await readFile(path, 'utf8')
      const contents = source.replace(/^import \{ z \} from 'zod'$/gm, "import * as z from 'zod'")
      const other = /^import (?!type |\* as z from 'zod'$)(?:z\b|\{[^}]*\bz\b[^}]*\}).* from 'zod'/m.exec(
        contents,
      )
      if (other) throw new Error(`${path}: ${other[0]}: import zod's z as { z } or * as z`)
      return { contents, loader: 'ts' }
    })
  },
}

// Chunks are named by their content's hash: those of the last build go first.
rmSync('dist/cli/chunks', { recursive: true, force: true })
const { metafile } = await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // An inlined CommonJS package (commander) calls require: it gets Node's own.
  banner: { js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);" },
  plugins: [keepOthersExternal, zodAsNamespace],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
})
// Which sources went into which chunk: how a test tells what a process loaded (test/helpers/imports.ts).
writeFileSync('dist/.bundle.json', JSON.stringify(metafile))
