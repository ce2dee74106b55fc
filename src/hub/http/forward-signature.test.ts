import { expect, it } from 'vitest'
import { bodyDigest, ForwardVerifier, signForward } from './forward-signature.js'

const KEY = 'sba_the-shared-admin-token-of-the-hubs'
const signed = { to: 'hub_b', from: 'hub_a', as: 'admin', body: bodyDigest(Buffer.from('{"text":"hi"}')) }

it('takes a passed-on request signed for this hub once, and refuses a replay, another hub’s, a stale one or an altered one', () => {
  let now = 1_000_000
  const b = new ForwardVerifier(
    KEY,
    () => 'hub_b',
    () => now,
  )
  const header = signForward(KEY, 'POST', '/sessions/ses_1/messages', signed, now)
  expect(b.verify('POST', '/sessions/ses_1/messages', header)).toEqual({
    signed: { ...signed, at: now, nonce: expect.stringMatching(/^[0-9a-f]{32}$/) },
  })
  // Captured and sent again.
  expect(b.verify('POST', '/sessions/ses_1/messages', header)).toEqual({
    refused: 'this passed-on request was taken once already',
  })
  // Sent to another hub than the one it was signed for.
  const c = new ForwardVerifier(
    KEY,
    () => 'hub_c',
    () => now,
  )
  expect(
    c.verify(
      'POST',
      '/sessions/ses_1/messages',
      signForward(KEY, 'POST', '/sessions/ses_1/messages', signed, now),
    ),
  ).toEqual({
    refused: 'this request was passed on for hub hub_b, not this one',
  })
  // Kept for later.
  const old = signForward(KEY, 'POST', '/sessions/ses_1/messages', signed, now)
  now += 61_000
  expect(b.verify('POST', '/sessions/ses_1/messages', old)).toMatchObject({
    refused: expect.stringMatching(/too old/),
  })
  // Another path, another method, another key, or a payload changed on the way.
  const fresh = signForward(KEY, 'POST', '/sessions/ses_1/messages', signed, now)
  const forged = { refused: 'a request passed on by a hub must be signed by a hub of this database' }
  expect(b.verify('POST', '/sessions/ses_2/messages', fresh)).toEqual(forged)
  expect(b.verify('DELETE', '/sessions/ses_1/messages', fresh)).toEqual(forged)
  expect(
    b.verify(
      'POST',
      '/sessions/ses_1/messages',
      signForward('another-key', 'POST', '/sessions/ses_1/messages', signed, now),
    ),
  ).toEqual(forged)
  const [payload, sig] = fresh.split('.')
  const widened = Buffer.from(
    JSON.stringify({
      ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()),
      as: 'web:web-evil',
    }),
  ).toString('base64url')
  expect(b.verify('POST', '/sessions/ses_1/messages', `${widened}.${sig}`)).toEqual(forged)
  expect(b.verify('POST', '/sessions/ses_1/messages', 'garbage')).toEqual(forged)
})
