// What people call a session, and whose it is: a driven session of another agent is named as its
// project and title, and says its agent, so a chat thread titled from it names the agent too.
import { expect, it } from 'vitest'
import { namedWithAgent } from '../../core/agents.js'
import { type DirectorySources, SessionDirectory } from './session-directory.js'

function directoryOf(config: Record<string, unknown>): SessionDirectory {
  const record = { id: 'ses_1', cwd: '/srv/api', title: 'fix the flaky test', config }
  const store = {
    getSession: async (id: string) => (id === 'ses_1' ? record : null),
    getRoutineRun: async () => null,
    getTerminalSession: async () => null,
    terminalSessionsNamed: async () => [],
  } as unknown as DirectorySources['store']
  return new SessionDirectory({ store, connections: new Map() })
}

it('says the agent of a driven session, and a thread titled from it names the agent beside the project', async () => {
  const codex = await directoryOf({ agent: 'codex' }).describe('session:ses_1')
  expect(codex).toMatchObject({ name: 'api · fix the flaky test', agent: 'codex', kind: 'driven' })
  expect(namedWithAgent(codex.name, codex.agent)).toBe('api · fix the flaky test (Codex)')
  const claude = await directoryOf({}).describe('ses_1')
  expect(claude.agent).toBe('claude')
  expect(namedWithAgent(claude.name, claude.agent)).toBe('api · fix the flaky test')
})
