// What a switchboard process loaded: every module it resolved, recorded by record-imports.mjs (preloaded
// through NODE_OPTIONS) into a file of the test's own, and read back as the packages they belong to.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const PRELOAD = pathToFileURL(resolve(import.meta.dirname, 'record-imports.mjs')).href

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

  /** The npm packages those modules belong to (`discord.js`, `@slack/bolt` …), each once. */
  packages(): Set<string> {
    const names = this.modules().map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    return new Set(names.filter((name): name is string => name !== undefined))
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}
