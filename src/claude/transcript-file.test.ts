// Finding the session's transcript: under CLAUDE_CONFIG_DIR or ~/.claude, the folder named as Claude
// Code names it, exactly the session's file when its id is known (another session in the folder may
// carry the same events), and a folder cut at 200 characters found by its prefix.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { configDir, projectFolderName, projectFolders, transcriptFiles } from './transcript-file.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function configHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'claude-config-'))
  dirs.push(dir)
  return dir
}

it('names the folder as Claude Code does, under CLAUDE_CONFIG_DIR or ~/.claude', () => {
  expect(projectFolderName('/tmp/claude-project-GMJpch')).toBe('-tmp-claude-project-GMJpch')
  expect(projectFolderName('/home/me/my_app.v2')).toBe('-home-me-my-app-v2')
  expect(configDir({ CLAUDE_CONFIG_DIR: '/c', HOME: '/h' })).toBe('/c')
  expect(configDir({ HOME: '/h' })).toBe('/h/.claude')
})

it("reads only the session's own file when its id is known, every recent one in the folder when not", () => {
  const config = configHome()
  const env = { CLAUDE_CONFIG_DIR: config }
  const folder = join(config, 'projects', '-work-app')
  mkdirSync(folder, { recursive: true })
  for (const id of ['mine', 'other', 'old']) writeFileSync(join(folder, `${id}.jsonl`), '{}\n')
  utimesSync(join(folder, 'old.jsonl'), new Date(0), new Date(0))
  expect(transcriptFiles('/work/app', 'mine', 1_000, env)).toEqual([join(folder, 'mine.jsonl')])
  // Not written yet: still that file, never a neighbour's.
  expect(transcriptFiles('/work/app', 'later', 1_000, env)).toEqual([join(folder, 'later.jsonl')])
  expect(transcriptFiles('/work/app', undefined, 1_000, env).sort()).toEqual(
    [join(folder, 'mine.jsonl'), join(folder, 'other.jsonl')].sort(),
  )
})

it('finds a folder whose name Claude Code cut at 200 characters by its prefix', () => {
  const config = configHome()
  const cwd = `/${'a'.repeat(250)}`
  const cut = `${projectFolderName(cwd).slice(0, 200)}-1x2y3z`
  mkdirSync(join(config, 'projects', cut), { recursive: true })
  expect(projectFolders(cwd, { CLAUDE_CONFIG_DIR: config })).toEqual([join(config, 'projects', cut)])
})
