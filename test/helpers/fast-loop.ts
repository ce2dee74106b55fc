// `npm run test:fast` runs only tests that need no process of their own (vitest.config.ts). A helper
// that starts one (a hub, Postgres, Chromium) calls this first, so a test in the wrong loop says how
// to move rather than slowing every fast run down or failing on a machine without the program.
export function startsProcesses(what: string): void {
  if (process.env.SWITCHBOARD_TEST_LOOP !== 'fast') return
  throw new Error(
    `this test starts ${what}: name its file *.integration.test.ts (or *.e2e.test.ts) so that only npm test runs it`,
  )
}
