// What a switchboard process loaded: every module it resolved, recorded by record-imports.mjs (preloaded
// through NODE_OPTIONS) into a file of the test's own, and read back as the sources that went into
// them (through the bundle's metafile) and the packages those belong to.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const PRELOAD = pathToFileURL(resolve(import.meta.dirname, 'record-imports.mjs')).href
const ROOT = resolve(import.meta.dirname, '../..')
const PACKAGE = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//

/**
 * What went into each file of the bundle (dist/cli/main.js and its chunks), by the file's URL: the
 * sources, as paths from the checkout (`src/cli/main.ts`, `node_modules/zod/…`), from the metafile
 * scripts/bundle.mjs writes. A chunk's name does not say what is in it.
 */
function bundled(): Map<string, string[]> {
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist/.bundle.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>
  }
  const byUrl = new Map<string, string[]>()
  for (const [output, { inputs }] of Object.entries(meta.outputs))
    byUrl.set(pathToFileURL(join(ROOT, output)).href, Object.keys(inputs))
  return byUrl
}

export class ImportRecord {
  private constructor(
    private readonly dir: string,
    readonly file: string,
  ) {}

  static create(): ImportRecord {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-imports-'))
    return new ImportRecord(dir, join(dir, 'imports.txt'))
  }

  /** `env` with the recorder preloaded into every node process started with it. */
  env(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return {
      ...env,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import ${PRELOAD}`.trim(),
      SWITCHBOARD_TEST_IMPORTS: this.file,
    }
  }

  /** Every module URL recorded so far, each once (a module imported from two files is resolved twice). */
  modules(): string[] {
    const lines = existsSync(this.file) ? readFileSync(this.file, 'utf8').split('\n') : []
    return [...new Set(lines.filter(Boolean))]
  }

  /**
   * The sources of what was loaded, as paths from the checkout: a module's own file, or for a file of
   * the bundle each source inlined into it.
   */
  sources(): string[] {
    const inlined = bundled()
    const files = this.modules()
      .filter((url) => url.startsWith('file:'))
      .flatMap((url) => inlined.get(url) ?? [relative(ROOT, fileURLToPath(url))])
    return [...new Set(files)]
  }

  /** The npm packages those sources belong to (`discord.js`, `@slack/bolt` …), each once. */
  packages(): Set<string> {
    const names = this.sources().map((source) => PACKAGE.exec(source)?.[1])
    return new Set(names.filter((name): name is string => name !== undefined))
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}
