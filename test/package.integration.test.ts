// What the npm tarball holds, as `npm pack` makes it: the built command, the plugin and its
// marketplace entry (so an installed package can be added as a Claude Code marketplace), the licence
// package.json names; and which Node it says it needs.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { ROOT } from './helpers/claude.js'

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
