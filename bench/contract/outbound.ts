// Rung 6, an outbound webhook: `switchboard subscribe --url` to a receiver in this process; written is
// the receiver's 2xx, as the hub records it. A receiver is not a session: nothing is in context.
import { createServer } from 'node:http'
import { startDrivingHub } from '../../test/helpers/e2e.js'
import { freePort } from '../../test/helpers/home.js'
import type { Rung } from './rung.js'
import { receiptTimes, withWorld } from './world.js'

export const outboundRung: Rung = {
  name: 'outbound',
  promise: 'POSTed signed, retried with backoff until a 2xx (written), dead-lettered after its attempts',
  measure: (n, warmup) =>
    withWorld({}, async (world) => {
      await startDrivingHub(world)
      const secret = await world.home.addSource('bench')
      const port = await freePort()
      const server = createServer((req, res) => {
        req.resume()
        req.on('end', () => res.writeHead(200).end())
      })
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
      world.closers.push(
        () =>
          new Promise<void>((r) => {
            server.closeAllConnections()
            server.close(() => r())
          }),
      )
      await world.home.cli('subscribe', '--url', `http://127.0.0.1:${port}/`, '--topics', 'bench')
      return receiptTimes(world, { source: 'bench', secret, n, warmup, until: 'written' })
    }),
}
