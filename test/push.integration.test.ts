// Web Push with the dashboard closed, from the push service's side: a browser subscribes (its keys
// made here as a browser makes them), a prompt opens, and what the hub posts to the fake push service
// on 127.0.0.1 is signed with the hub's VAPID key and decrypts to the prompt, which the browser's key
// then answers (as the service worker's Allow does). A subscription the push service says is gone is
// dropped; `switchboard push list|revoke` see and remove the rest.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ChannelClient } from './helpers/channel-client.js'
import { signInWith } from './helpers/dashboard.js'
import { waitFor } from './helpers/home.js'
import { homePerTest } from './helpers/home-per-test.js'
import {
  type BrowserKeys,
  browserKeys,
  checkVapid,
  decryptPush,
  FakePushService,
} from './helpers/web-push.js'

const world = homePerTest()

/** The session's folder: a project named shop, so that its name reads the same wherever the tests run. */
function shop(): string {
  const dir = join(world.home.dir, 'shop')
  mkdirSync(dir, { recursive: true })
  return dir
}

async function browser(): Promise<Record<string, string>> {
  const printed = await world.home.cli('open', '--print')
  const link = /(http:\/\/\S+\/signin\?token=\S+)/.exec(printed)?.[1] as string
  return { ...(await signInWith(link)), 'x-switchboard': '1', 'content-type': 'application/json' }
}

async function api(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const res = await fetch(`${world.home.url}${path}`, { ...init, headers })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}

async function subscribe(headers: Record<string, string>, endpoint: string, keys: BrowserKeys) {
  return api('/api/push/subscriptions', headers, {
    method: 'POST',
    body: JSON.stringify({ endpoint, expirationTime: null, keys: keys.json }),
  })
}

it('pushes a prompt encrypted to the browser, signed with the hub’s key, and the browser’s key answers it', async () => {
  // The contact push services are given is the operator's (config.json's pushContact).
  writeFileSync(join(world.home.dir, 'config.json'), JSON.stringify({ pushContact: 'mailto:ops@shop.test' }))
  const channel = await ChannelClient.start(world.home, ['--name', 'desk'], {}, shop())
  world.opened.push(channel)
  const service = await FakePushService.start()
  world.opened.push(service)
  const headers = await browser()
  const { json: key } = await api('/api/push/key', headers)
  const phone = browserKeys()
  const subscribed = await subscribe(headers, `${service.origin}/push/phone`, phone)
  expect(subscribed.status).toBe(201)
  expect(subscribed.json.subscription).toMatchObject({
    service: service.origin.slice('http://'.length),
    current: true,
  })
  // The same browser's other subscription, which its push service has since forgotten.
  service.statuses.set('/push/gone', 410)
  await subscribe(headers, `${service.origin}/push/gone`, browserKeys())

  await channel.sendPermissionRequest({
    request_id: 'abcde',
    tool_name: 'Bash',
    description: 'List the files',
    input_preview: JSON.stringify({ command: 'ls -la /srv' }),
  })
  await waitFor(() => service.to('/push/phone').length === 1, 15_000, 'a push to the phone')
  const [push] = service.to('/push/phone')
  expect(push?.headers['content-encoding']).toBe('aes128gcm')
  expect(Number(push?.headers.ttl)).toBeGreaterThan(0)
  const vapid = checkVapid(push?.headers.authorization)
  expect(vapid.key).toBe(key.publicKey)
  expect(vapid.claims).toMatchObject({ aud: service.origin, sub: 'mailto:ops@shop.test' })

  const payload = JSON.parse(decryptPush(push?.body as Buffer, phone))
  expect(payload).toEqual({
    type: 'decision',
    decision: expect.stringMatching(/\S/),
    answer: `/api/decisions/${payload.decision}/answer`,
    kind: 'permission',
    session: 'desk',
    title: 'shop · desk: Bash',
    body: '$ ls -la /srv',
    url: '/#/inbox',
    actions: true,
  })

  // The push service said the other is gone: it is dropped, and the list shows the phone alone.
  await waitFor(
    async () => JSON.parse(await world.home.cli('push', 'list', '--json')).length === 1,
    10_000,
    'the gone subscription to be dropped',
  )
  const [listed] = JSON.parse(await world.home.cli('push', 'list', '--json'))
  expect(listed).toMatchObject({
    id: expect.stringMatching(/^push_/),
    sender: expect.stringMatching(/^web-/),
  })
  expect(JSON.stringify(listed)).not.toContain('/push/phone')

  // Allow, as the notification's action sends it: the channel gets the verdict.
  const answered = await api(payload.answer, headers, {
    method: 'POST',
    body: JSON.stringify({ behavior: 'allow' }),
  })
  expect(answered.status).toBe(200)
  await waitFor(() => channel.verdicts.length === 1, 10_000, 'the verdict at the channel')
  expect(channel.verdicts[0]).toEqual({ request_id: 'abcde', behavior: 'allow' })

  // Revoked at the terminal: the next prompt is pushed nowhere.
  expect(JSON.parse(await world.home.cli('push', 'revoke', listed.id, '--json'))).toEqual({
    removed: listed.id,
  })
  expect(await world.home.cli('push', 'list')).toContain('no browser gets push yet')
  const failed = await world.home.cliFails('push', 'revoke', listed.id)
  expect(failed.stderr.trim()).toBe(`switchboard: no push subscription ${listed.id}`)
  expect(failed.code).not.toBe(0)
})

it('pushes nothing to a browser that may no longer operate, and refuses a push service that is not https', async () => {
  const channel = await ChannelClient.start(world.home, ['--name', 'desk'], {}, shop())
  world.opened.push(channel)
  const service = await FakePushService.start()
  world.opened.push(service)
  const headers = await browser()
  const refused = await subscribe(headers, 'http://push.example/phone', browserKeys())
  expect(refused).toEqual({
    status: 400,
    json: expect.objectContaining({ error: expect.stringMatching(/https/) }),
  })

  await subscribe(headers, `${service.origin}/push/phone`, browserKeys())
  const me = (await api('/api/me', headers)).json.name as string
  await world.home.cli('access', 'block', me)
  await channel.sendPermissionRequest({
    request_id: 'fghij',
    tool_name: 'Bash',
    description: 'x',
    input_preview: '{"command":"true"}',
  })
  // A second browser, still an operator, is pushed to: by then the blocked one would have been too.
  const other = browserKeys()
  const second = await browser()
  await subscribe(second, `${service.origin}/push/other`, other)
  await channel.sendPermissionRequest({
    request_id: 'kmnpq',
    tool_name: 'Bash',
    description: 'y',
    input_preview: '{"command":"false"}',
  })
  await waitFor(() => service.to('/push/other').length === 1, 15_000, 'a push to the other browser')
  expect(service.to('/push/phone')).toEqual([])
})
