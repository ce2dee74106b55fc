// The resolve hook of record-imports.mjs: it runs on the loader's own thread, so it writes each URL
// to the file at once rather than telling the main thread.
import { appendFileSync } from 'node:fs'

let file = ''

export function initialize(data) {
  file = data.file
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(file, `${resolved.url}\n`)
  return resolved
}
