import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { discoverSessions } from './discovery.js'

it('merges transcripts and history, survives broken lines, filters by folder, newest first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claude-dir-'))
  const project = join(dir, 'projects', '-work-app')
  mkdirSync(project, { recursive: true })
  writeFileSync(
    join(project, 'aaa.jsonl'),
    [
      '{"type":"queue-operation","operation":"enqueue"}',
      '{broken',
      JSON.stringify({
        type: 'user',
        cwd: '/work/app',
        sessionId: 'aaa',
        message: { role: 'user', content: 'fix the build' },
      }),
      '{"type":"some-future-type","x":1}',
    ].join('\n'),
  )
  writeFileSync(
    join(dir, 'history.jsonl'),
    [
      JSON.stringify({
        display: 'fix the build',
        timestamp: 4_000_000_000_000,
        project: '/work/app',
        sessionId: 'aaa',
      }),
      JSON.stringify({
        display: 'hello',
        timestamp: 3_000_000_000_000,
        project: '/work/other',
        sessionId: 'bbb',
      }),
      'not json',
    ].join('\n'),
  )
  const all = discoverSessions({ claudeDir: dir })
  expect(all.map((s) => s.sessionId)).toEqual(['aaa', 'bbb'])
  expect(all[0]).toMatchObject({
    cwd: '/work/app',
    firstPrompt: 'fix the build',
    sources: ['transcript', 'history'],
  })
  expect(all[1]).toMatchObject({ cwd: '/work/other', firstPrompt: 'hello', sources: ['history'] })
  expect(discoverSessions({ claudeDir: dir, cwd: '/work/other' }).map((s) => s.sessionId)).toEqual(['bbb'])
  expect(discoverSessions({ claudeDir: join(dir, 'missing') })).toEqual([])
})
