// Writes test/durations.json (read by test/sequencer.ts) from vitest's JSON report of a full run:
//   npx vitest run --reporter=default --reporter=json --outputFile.json=report.json
//   node scripts/test-durations.mjs report.json
// Files that took under a second are left out: the sequencer counts them as unknown, and they are short.
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'

const [reportPath] = process.argv.slice(2)
if (!reportPath) {
  console.error('usage: node scripts/test-durations.mjs <vitest JSON report>')
  process.exit(2)
}
let report
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'))
} catch (err) {
  console.error(`${reportPath}: not a readable JSON report (${err.message})`)
  process.exit(1)
}
const root = new URL('..', import.meta.url).pathname
const seconds = Object.fromEntries(
  (report.testResults ?? [])
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 1000)])
    .filter(([, s]) => s >= 1)
    .sort((a, b) => b[1] - a[1]),
)
writeFileSync(new URL('../test/durations.json', import.meta.url), `${JSON.stringify(seconds, null, 2)}\n`)
console.log(`test/durations.json: ${Object.keys(seconds).length} files`)
