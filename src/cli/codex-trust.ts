// The hash Codex trusts a hook by, asked of Codex itself: `codex app-server`'s `hooks/list` reports
// each configured hook with its key and `currentHash` (shared/AGENTS.md §1c). Codex computes the hash
// over the hook's configuration in its own way, which Switchboard does not copy: a copy would trust
// the wrong thing, or nothing, the day Codex changes it.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import * as z from 'zod'

/** How long Codex may take to start and list its hooks. */
const LIST_MS = 30_000

const listedSchema = z.object({
  data: z.array(
    z.object({
      hooks: z.array(
        z.looseObject({ key: z.string(), currentHash: z.string(), trustStatus: z.string().optional() }),
      ),
    }),
  ),
})

/**
 * The hash Codex computes of the hook at `key`, listed for `cwd`; null, with why, when Codex is not
 * there or does not list it.
 */
export async function codexHookHash(
  codex: string,
  key: string,
  cwd: string,
): Promise<{ hash: string } | { why: string }> {
  const child = spawn(codex, ['app-server'], { cwd, stdio: ['pipe', 'pipe', 'ignore'] })
  try {
    const answer = await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${LIST_MS / 1000} s`)), LIST_MS)
      child.on('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
      child.on('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`it exited (${code})`))
      })
      createInterface({ input: child.stdout }).on('line', (line) => {
        let m: { id?: unknown; result?: unknown; error?: { message?: string } }
        try {
          m = JSON.parse(line)
        } catch {
          return
        }
        if (m.id !== 2) return
        clearTimeout(timer)
        if (m.error) reject(new Error(m.error.message ?? 'hooks/list failed'))
        else resolve(m.result)
      })
      const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`)
      send({
        id: 1,
        method: 'initialize',
        params: { clientInfo: { name: 'switchboard', title: 'Switchboard', version: '1' }, capabilities: {} },
      })
      send({ method: 'initialized' })
      send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } })
    })
    const listed = listedSchema.safeParse(answer)
    if (!listed.success) return { why: 'Codex answered hooks/list in a form Switchboard does not know' }
    const hook = listed.data.data.flatMap((d) => d.hooks).find((h) => h.key === key)
    return hook ? { hash: hook.currentHash } : { why: `Codex does not list the hook ${key}` }
  } catch (err) {
    return { why: `codex app-server: ${(err as Error).message}` }
  } finally {
    child.kill()
  }
}
