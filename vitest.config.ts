import { configDefaults, defineConfig } from 'vitest/config'
import { LongestFirst } from './test/sequencer.js'

// A test file's name says what it needs (README, Tests). `*.integration.test.ts` starts processes of
// its own (a hub or a channel from dist/, Postgres) and `*.e2e.test.ts` the Claude CLI, Chromium or
// tmux: only `npm test` runs them, after a build. Every other `*.test.ts` runs inside vitest's worker
// and needs no build: `npm run test:fast` runs those alone.
const needsProcesses = ['**/*.integration.test.ts', '**/*.e2e.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn hubs and channels, and wait on them; two cores are shared by every
    // worker. With two workers the process files used 1.6 cores on average once a hub's start cost a
    // third less (process accounting over the whole run): the rest was waits. A third fills them.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // Files share a worker's modules instead of importing zod, pino, the MCP SDK and the helpers again
    // each: the fast loop takes a third of the time, and the process files' run took 1,204 s instead
    // of 1,372-1,381 (a fresh clone, three workers each). So a test puts back what it changes (env,
    // timers, mocks) and closes what it started.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...needsProcesses],
          // Read by test/helpers/fast-loop.ts: a helper that would start a process refuses to here.
          env: { SWITCHBOARD_TEST_LOOP: 'fast' },
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: needsProcesses.map((p) => `{src,test}/${p}`),
          // A test here runs real processes step by step, each wait with a deadline of its own that says
          // what did not happen; on two busy cores a 7-second test took 31. The test's own limit is only
          // the last resort, so it is not the one that trips.
          testTimeout: 120_000,
        },
      },
    ],
  },
})
