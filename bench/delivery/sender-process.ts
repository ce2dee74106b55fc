// The webhook sender (sender.ts) as a child process of the bench, and a promise per request to it.
import { type ChildProcess, fork } from 'node:child_process'
import { resolve } from 'node:path'
import type { SenderAnswer, SenderAsk } from './sender.js'

export function startSender() {
  const child: ChildProcess = fork(resolve(import.meta.dirname, 'sender.ts'), [], {
    execArgv: ['--import', 'tsx'],
  })
  const answers = new Map<number, (a: SenderAnswer) => void>()
  child.on('message', (a: SenderAnswer) => {
    answers.get(a.id)?.(a)
    answers.delete(a.id)
  })
  let nextId = 1
  return {
    /** The sender's process, to read its CPU time. */
    pid: child.pid ?? null,
    async ask(ask: SenderAsk): Promise<SenderAnswer> {
      const id = nextId++
      const answer = new Promise<SenderAnswer>((r) => answers.set(id, r))
      child.send({ id, ask })
      const a = await answer
      if (a.failed) throw new Error(`sender: ${a.failed}`)
      return a
    },
    stop: () => child.disconnect(),
  }
}
export type Sender = ReturnType<typeof startSender>
