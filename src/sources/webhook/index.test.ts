import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { type ErrorKind, isDomainError } from '../../core/errors.js'
import type { Source } from '../../store/store.js'
import { verifyWebhook, webhookEvent } from './index.js'

const source: Source = {
  name: 'gh',
  topic: 'github',
  secret: 's3cret',
  deliveryHeader: 'X-GitHub-Delivery',
  createdAt: 0,
}
const body = Buffer.from('{"action":"opened"}')

/** The kind of failure `fn` throws (the HTTP layer answers each with its status), or null. */
function failure(fn: () => unknown): ErrorKind | 'fault' | null {
  try {
    fn()
    return null
  } catch (err) {
    return isDomainError(err) ? err.kind : 'fault'
  }
}

describe('webhook verification', () => {
  it('accepts the bearer secret or a signature of the exact body', () => {
    expect(failure(() => verifyWebhook(source, { authorization: 'Bearer s3cret' }, body))).toBeNull()
    const sig = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`
    expect(failure(() => verifyWebhook(source, { 'x-hub-signature-256': sig }, body))).toBeNull()
  })

  it('accepts basic auth whose password is the secret, as Grafana and Alertmanager can send it', () => {
    const basic = (credentials: string) => ({
      authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
    })
    expect(failure(() => verifyWebhook(source, basic('alertmanager:s3cret'), body))).toBeNull()
    expect(failure(() => verifyWebhook(source, basic('any:name:s3cret'), body))).toBe('unauthorized')
    expect(failure(() => verifyWebhook(source, basic('s3cret'), body))).toBe('unauthorized')
    expect(failure(() => verifyWebhook(source, { authorization: 'Basic !!!' }, body))).toBe('unauthorized')
  })

  it('takes a generic sender’s signature as X-Hub-Signature-256 only, not as another sender’s header', () => {
    const hex = createHmac('sha256', 's3cret').update(body).digest('hex')
    expect(failure(() => verifyWebhook(source, { 'sentry-hook-signature': hex }, body))).toBe('unauthorized')
  })

  it('refuses a signature of another body, even with a right bearer beside it', () => {
    const sig = `sha256=${createHmac('sha256', 's3cret').update('other').digest('hex')}`
    expect(
      failure(() =>
        verifyWebhook(source, { 'x-hub-signature-256': sig, authorization: 'Bearer s3cret' }, body),
      ),
    ).toBe('unauthorized')
  })
})

const bySecret = { kind: 'secret' } as const

describe('webhook events', () => {
  it('uses a JSON text field as content and the other scalars as meta', () => {
    const e = webhookEvent(
      source,
      { 'content-type': 'application/json', 'x-github-delivery': 'd-1' },
      Buffer.from('{"text":"deploy done","env":"prod","n":3}'),
      new URLSearchParams(),
      bySecret,
    )
    expect(e).toMatchObject({
      topic: 'github',
      content: 'deploy done',
      meta: { env: 'prod', n: '3' },
      idempotencyKey: 'd-1',
    })
  })

  it('shows Claude a JSON body without a text field as JSON', () => {
    const e = webhookEvent(
      source,
      { 'content-type': 'application/json' },
      body,
      new URLSearchParams(),
      bySecret,
    )
    expect(JSON.parse(e.content)).toEqual({ action: 'opened' })
  })

  it('keeps a deeply nested body about its own size, not indented into many times it', () => {
    let nested: unknown = 'leaf'
    for (let i = 0; i < 30; i++) nested = { k: [nested] }
    const raw = Buffer.from(JSON.stringify(nested))
    const e = webhookEvent(
      source,
      { 'content-type': 'application/json' },
      raw,
      new URLSearchParams(),
      bySecret,
    )
    expect(JSON.parse(e.content)).toEqual(nested)
    expect(Buffer.byteLength(e.content)).toBeLessThanOrEqual(raw.length)
  })

  it('takes a plain text body as it is', () => {
    const e = webhookEvent(
      source,
      { 'content-type': 'text/plain' },
      Buffer.from('{not json'),
      new URLSearchParams('a=1'),
      bySecret,
    )
    expect(e).toMatchObject({ content: '{not json', meta: { a: '1' } })
  })

  it('refuses an empty body and broken JSON as invalid (400)', () => {
    expect(failure(() => webhookEvent(source, {}, Buffer.from('  '), new URLSearchParams(), bySecret))).toBe(
      'invalid',
    )
    expect(
      failure(() =>
        webhookEvent(
          source,
          { 'content-type': 'application/json' },
          Buffer.from('{'),
          new URLSearchParams(),
          bySecret,
        ),
      ),
    ).toBe('invalid')
  })
})
