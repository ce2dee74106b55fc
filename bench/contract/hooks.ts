// Rung 3, hook context: a `-p` session of a person (no channel), with `install claude --hooks`; each
// event is posted while the session is idle and a prompt follows at once, whose UserPromptSubmit hook
// hands the event over. So the figure is the hook's path, not the wait for the person's next prompt.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PrintSession } from '../../test/helpers/claude.js'
import { drivingEnv, startDrivingHub } from '../../test/helpers/e2e.js'
import { CLI } from '../../test/helpers/home.js'
import type { Rung } from './rung.js'
import { receiptTimes, withWorld } from './world.js'

export const hooksRung: Rung = {
  name: 'hooks',
  promise:
    "in context at the session's next prompt or tool call, confirmed from the transcript; else unconfirmed with why after 93 s",
  measure: (n, warmup) =>
    withWorld({}, async (world) => {
      const env = drivingEnv(world)
      writeFileSync(join(world.claude.cwd, '.switchboard.json'), JSON.stringify({ topics: ['ci'] }))
      await startDrivingHub(world)
      execFileSync(process.execPath, [CLI, 'install', 'claude', '--hooks'], { env })
      const secret = await world.home.addSource('ci')
      world.fake.respond(() => ({ text: 'noted' }))
      const { SWITCHBOARD_DRIVEN: _, ...person } = env
      const session = new PrintSession([], { cwd: world.claude.cwd, env: person })
      world.closers.push(() => session.close())
      // Its first hook names the session to the hub.
      session.send('hello')
      await session.waitForResults(1)
      return receiptTimes(world, {
        source: 'ci',
        secret,
        n,
        warmup,
        until: 'in_context',
        handOver: (i) => session.send(`next ${i}`),
        settle: (i) => session.waitForResults(i + 2),
      })
    }),
}
