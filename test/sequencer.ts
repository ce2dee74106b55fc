// The order test files start in: the longest first. Vitest starts files it has no timings for by
// size, largest first, and a fresh checkout (CI) has none, so a short file of one long test (the soak,
// the partitions) started last and ran alone while the other worker sat idle. test/durations.json
// holds each slow file's seconds from a full run; `node scripts/test-durations.mjs <report.json>`
// writes it again from vitest's JSON report. A file it does not name counts as UNKNOWN_SECONDS.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const UNKNOWN_SECONDS = 10

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<
      string,
      number
    >
    const root = this.ctx.config.root
    const cost = (file: TestSpecification) => seconds[relative(root, file.moduleId)] ?? UNKNOWN_SECONDS
    // Projects keep the order vitest gives them; within one, the longest file first.
    const projects = [...new Set((await super.sort(files)).map((f) => f.project.name))]
    const rank = (f: TestSpecification) => projects.indexOf(f.project.name)
    return [...files].sort((a, b) => rank(a) - rank(b) || cost(b) - cost(a))
  }
}
