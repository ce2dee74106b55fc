// Web Push follows the outbox: a prompt put to operators reaches each operator's browsers through
// the item in that operator's outbox (one push each, not one per operator's item to everyone), and a
// sender who is no operator, whose outbox never gets the prompt, is pushed nothing.
import { pino } from 'pino'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import { browserKeys, decryptPush } from '../../../test/helpers/web-push.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import { Push } from './push.js'

const log = pino({ level: 'silent' })
let store: Store
beforeEach(() => {
  store = openSqliteStore(':memory:')
})
afterEach(async () => {
  await store.close()
})

it('pushes a prompt to the browsers of each operator it went to, once each, and to no one else', async () => {
  const hub = memoryHub(store)
  const posted: { endpoint: string; body: Buffer }[] = []
  const push = new Push(store, log, {
    fetch: async (endpoint, init) => {
      posted.push({ endpoint: String(endpoint), body: Buffer.from(init?.body as Uint8Array) })
      return new Response(null, { status: 201 })
    },
  })
  hub.events.stored.on(async (item, here) => {
    if (here) await push.stored(item)
    return undefined
  })
  const keys = { ann: browserKeys(), bob: browserKeys(), guest: browserKeys() }
  for (const [name, operator] of [
    ['ann', true],
    ['bob', true],
    ['guest', false],
  ] as const) {
    const sender = await store.addSender({ name, tokenHash: `hash-${name}`, status: 'allowed', operator })
    await push.subscribe(sender, { endpoint: `http://127.0.0.1:9/push/${name}`, keys: keys[name].json }, null)
  }

  const decision = await hub.decisions.openQuestion('desk', {
    tool_name: 'Bash',
    input: { command: 'ls -la /srv' },
  })

  expect(posted.map((p) => p.endpoint).sort()).toEqual([
    'http://127.0.0.1:9/push/ann',
    'http://127.0.0.1:9/push/bob',
  ])
  const ann = posted.find((p) => p.endpoint.endsWith('/ann'))
  expect(JSON.parse(decryptPush(ann?.body as Buffer, keys.ann))).toMatchObject({
    type: 'decision',
    decision: decision.id,
    kind: 'permission',
    body: '$ ls -la /srv',
  })
})
