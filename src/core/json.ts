// JSON from outside: parsed, and refused when deeper than anything the hub walks safely.
import { invalid } from './errors.js'

/** Deeper than any honest payload, and shallow enough for every recursive walk of it. */
export const MAX_JSON_DEPTH = 64

/** JSON.parse, with a too-deep document answered 400 before anything recurses into it. */
export function parseJson(text: string): unknown {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw invalid(`body is not valid JSON: ${(err as Error).message}`)
  }
  if (depthOf(json) > MAX_JSON_DEPTH) throw invalid(`body is nested deeper than ${MAX_JSON_DEPTH} levels`)
  return json
}

/** Without recursion: the value may be as deep as the body is long. */
function depthOf(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (v === null || typeof v !== 'object') continue
    deepest = Math.max(deepest, depth)
    if (deepest > MAX_JSON_DEPTH) return deepest
    for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
  return deepest
}
