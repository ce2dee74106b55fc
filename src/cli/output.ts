// What `--json` prints: one indented JSON document on stdout, for scripts.
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}
