// A secret the home keeps in a file of its own (the admin token, the hub's certificate): made the
// first time it is asked for, mode 0600. Written aside, then linked, so a racing process sees all of
// it or none, and the first writer's copy is the one everyone reads.
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

/** The file's text, written with `make()` when there is no file yet (`make` runs only then). */
export function readOrMakeSecretFile(file: string, make: () => string): string {
  if (!existsSync(file)) {
    const draft = `${file}.${process.pid}.tmp`
    try {
      writeFileSync(draft, make(), { mode: 0o600 })
      linkSync(draft, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      rmSync(draft, { force: true })
    }
  }
  chmodSync(file, 0o600)
  return readFileSync(file, 'utf8')
}
