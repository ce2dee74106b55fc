// The build's last step: `switchboard` as one entry file and the chunks its commands load when they
// run (dist/cli/main.js, dist/cli/chunks/), written over the entry tsc emitted. On Node 20 every ES
// module costs a resolve, a read and a compile before any code runs, and a hub loaded about 400
// files: most of its start-up, and of every CLI call's. The libraries inlined are plain JavaScript
// with no files of their own to find at run time; the rest (native code, worker threads, the chat
// platforms' large clients, loaded only with their bridge) stay packages, imported as they are.
// Plain JavaScript: it runs before anything is built.
import { rmSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'

/**
 * Packages inlined into the bundle (a subpath of one counts as the package), with what they import
 * in turn: our own code imports these, and they are plain JavaScript.
 */
const INLINED = new Set([
  'zod',
  'hono',
  '@hono/node-server',
  'commander',
  '@modelcontextprotocol/sdk',
  // Imported from node_modules, it brought a second copy of zod into every hub's start (~0.2 CPU-s).
  '@agentclientprotocol/sdk',
  'pino',
  'ws',
])
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
  plugins: [keepOthersExternal],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
})
// Which sources went into which chunk: how a test tells what a process loaded (test/helpers/imports.ts).
writeFileSync('dist/.bundle.json', JSON.stringify(metafile))
