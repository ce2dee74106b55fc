// Which methods the contract takes on a path, so that a known path asked with another method is a
// 405 naming the ones it takes, not a 404; and so that a route runs for its own method only (Hono
// hands a HEAD to the GET route of its path, and a GET may act: GET /events marks what it streams).
import { TrieRouter } from 'hono/router/trie-router'
import { ROUTES } from '../../core/api/routes.js'

const CONTRACT = new TrieRouter<string>()
const METHODS = [...new Set(Object.values(ROUTES).map((route) => route.method as string))]
for (const route of Object.values(ROUTES)) CONTRACT.add(route.method, route.path, route.method)

/** The methods the contract takes on `path`. */
export function methodsOn(path: string): string[] {
  return METHODS.filter((method) => CONTRACT.match(method, path)[0].length > 0)
}

/** The answer to `method` on a path the contract has with other methods only. */
export function wrongMethod(method: string, path: string): Response {
  // No kind says "wrong method": the path is there, not with this method.
  const error = `${method} is not allowed on ${path} (${methodsOn(path).join(', ')} is)`
  return Response.json({ error, kind: 'not_found' }, { status: 405 })
}
