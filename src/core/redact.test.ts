import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REDACTED, Redactor, redactSecrets } from './redact.js'

const chars = (alphabet: string, min: number, max = min) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: min, maxLength: max })
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const ALNUM = `${UPPER_DIGITS}abcdefghijklmnopqrstuvwxyz`
const B64URL = `${ALNUM}_-`

/** Secrets of every shape the rules know, as a leak would carry them. */
const secret = fc.oneof(
  chars(UPPER_DIGITS, 16).map((s) => `AKIA${s}`),
  chars(ALNUM, 36).map((s) => `ghp_${s}`),
  chars(`${ALNUM}_`, 40, 82).map((s) => `github_pat_${s}`),
  chars(`${ALNUM}-`, 20, 50).map((s) => `xoxb-1${s}`),
  chars(`${ALNUM}-`, 20, 50).map((s) => `xapp-1${s}`),
  fc
    .tuple(fc.integer({ min: 100_000, max: 9_999_999_999 }), chars(B64URL, 33))
    .map(([id, s]) => `${id}:AA${s}`),
  fc
    .tuple(chars(B64URL, 24, 26), chars(B64URL, 6), chars(B64URL, 27, 38))
    .map(([a, b, c]) => `M${a}.${b}.${c}`),
  chars(B64URL, 40).map((s) => `sk-ant-${s}`),
  chars(B64URL, 32).map((s) => `sba_${s}`),
  chars(B64URL, 12, 40).map((s) => `9${s}`),
)

/** Ordinary words and punctuation, as a tool call or a reply is made of. */
const prose = fc
  .array(
    fc.constantFrom(
      'ls',
      '-la',
      'src/app.ts',
      'npm test',
      'the',
      'key',
      'Read',
      '$',
      '|',
      '\n',
      'token',
      'x = 1',
    ),
    { maxLength: 8 },
  )
  .map((words) => words.join(' '))

describe('redactSecrets', () => {
  it('keeps no secret of a known shape, wherever it stands in the text', () => {
    fc.assert(
      fc.property(prose, secret, prose, (before, s, after) => {
        const shown = redactSecrets(`${before} ${s} ${after}`)
        // The part of the Bearer-less digit string rule is only a secret with a name or a scheme.
        if (s.startsWith('9')) return true
        expect(shown).not.toContain(s)
        expect(shown).toContain(REDACTED)
      }),
    )
  })

  it('keeps no value after a secret’s name, a Bearer scheme, or a URL’s password', () => {
    fc.assert(
      fc.property(secret, fc.constantFrom('=', ': "', "='", ' = "'), (s, sep) => {
        const close = sep.includes('"') ? '"' : sep.includes("'") ? "'" : ''
        for (const said of [
          `PASSWORD${sep}${s}${close}`,
          `curl -H 'Authorization: Bearer ${s}' https://api.example.com`,
          `git clone https://olga:${s}@example.com/repo.git`,
          `mysql --password ${s}`,
          `https://example.com/cb?access_token${sep === '=' ? '=' : '='}${s}&x=1`,
        ])
          expect(redactSecrets(said)).not.toContain(s)
      }),
    )
  })

  it('is stable: redacting twice changes nothing more', () => {
    fc.assert(
      fc.property(prose, secret, prose, (a, s, b) => {
        const once = redactSecrets(`${a} password=${s} ${b} ${s}`)
        expect(redactSecrets(once)).toBe(once)
      }),
    )
  })

  it('leaves ordinary text alone', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(redactSecrets(text)).toBe(text)
      }),
    )
    for (const text of [
      '$ npm test -- --run src/core',
      'Read /home/olga/app/src/token-store.ts',
      'Edit src/hub/bridges/progress.ts',
      'const token = readToken(home)',
      'Bearer authentication is what the API takes',
      'The password is checked by bcrypt.',
      'https://github.com/owner/repo/pull/12',
    ])
      expect(redactSecrets(text)).toBe(text)
  })

  it('redacts a PEM private key whole, also when its end was cut off', () => {
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nAAAA\n-----END OPENSSH PRIVATE KEY-----'
    expect(redactSecrets(`cat ~/.ssh/id\n${key}\ndone`)).toBe(
      `cat ~/.ssh/id\n-----BEGIN OPENSSH PRIVATE KEY----- ${REDACTED}\ndone`,
    )
    expect(redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEow…')).not.toContain('MIIEow')
    // A public key or a certificate is no secret.
    expect(redactSecrets('-----BEGIN CERTIFICATE-----\nMIIB')).toContain('MIIB')
  })

  it('redacts an AWS key pair in an environment line', () => {
    const shown = redactSecrets(
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls',
    )
    expect(shown).toBe(`AWS_ACCESS_KEY_ID=${REDACTED} AWS_SECRET_ACCESS_KEY=${REDACTED} aws s3 ls`)
  })
})

describe('Redactor', () => {
  it('redacts the hub’s own secrets whatever their shape, and ignores ones too short to be secrets', () => {
    const redactor = new Redactor(['TEST-discord-token.abc123.switchboard', 'short', 'hunter2hunter2'])
    expect(redactor.redact('token TEST-discord-token.abc123.switchboard, pw hunter2hunter2, short')).toBe(
      `token ${REDACTED}, pw ${REDACTED}, short`,
    )
    redactor.setSecrets(['another-secret-value'])
    expect(redactor.redact('hunter2hunter2 another-secret-value')).toBe(`hunter2hunter2 ${REDACTED}`)
  })

  it('redacts a secret that contains another one whole', () => {
    const redactor = new Redactor(['abcdefgh12', 'abcdefgh12345678'])
    expect(redactor.redact('x abcdefgh12345678 y')).toBe(`x ${REDACTED} y`)
  })
})
