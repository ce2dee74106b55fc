// What the npm tarball holds, as `npm pack` makes it: the built command, the plugin and its
// marketplace entry (so an installed package can be added as a Claude Code marketplace), the licence
// package.json names; and which Node it says it needs.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { CLAUDE_BIN, ROOT } from './helpers/claude.js'

const run = promisify(execFile)
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string
  engines: { node: string }
}

it('ships the command, the plugin, the marketplace entry and the licence', { timeout: 60_000 }, async () => {
  // --ignore-scripts: the tarball's list, without building again (npm run build made dist/).
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT })
  const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? []
  expect(files).toEqual(
    expect.arrayContaining([
      'LICENSE',
      'README.md',
      'dist/cli/main.js',
      'dist/web/index.html',
      'plugin/launch.mjs',
      'plugin/.mcp.json',
      'plugin/.claude-plugin/plugin.json',
      '.claude-plugin/marketplace.json',
    ]),
  )
  expect(files.filter((f) => /\.test\.|^test\/|^src\//.test(f))).toEqual([])
  expect(pkg.license).toBe('MIT')
  expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/)
})

it('needs the Node that builds it, and the pinned Claude Code needs none', async () => {
  // vite (the dashboard's build, part of npm ci) sets the floor: 20.19 on the 20 line, 22.12 after.
  expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0')
  // The test dependency's engines (>=22) speak of its JavaScript wrapper; what it installs and the
  // tests run is a native binary, which runs with no Node on PATH at all.
  expect(readFileSync(CLAUDE_BIN).subarray(0, 4).toString('latin1')).toMatch(/^(\x7fELF|\xcf\xfa\xed\xfe|MZ)/)
  const home = mkdtempSync(join(tmpdir(), 'claude-home-'))
  try {
    const { stdout } = await run(CLAUDE_BIN, ['--version'], { env: { PATH: '/nonexistent', HOME: home } })
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/)
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
})
