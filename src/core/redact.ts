// Secrets kept out of what leaves for a chat: keys and tokens found by their shape (AWS, GitHub,
// Slack, Telegram, Discord, Bearer, `password=…`, PEM private keys, credentials in a URL) and the
// hub's own secrets, given as they are. A false positive costs a word on a phone; a miss costs a key.

/** What stands where a secret was: no character any platform's markup treats as special. */
export const REDACTED = '‹redacted›'

/** A literal secret shorter than this is a word, not a secret: redacting it would eat ordinary text. */
const MIN_LITERAL = 8

/** Characters a value after `=` or `:` stops at: quotes, separators, markup's angle brackets. */
const VALUE = String.raw`[^\s"'&;,<>()\[\]{}]`
/** Names that say their value is a secret. */
const SECRET_NAME =
  '[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_]*'

interface Rule {
  name: string
  pattern: RegExp
  /** The replacement: the part of the match that may stay, and REDACTED for the rest. */
  replace: (match: string, ...groups: string[]) => string
}

const whole = () => REDACTED

/** Each rule finds one shape; all are global, and none matches its own replacement. */
export const SECRET_RULES: readonly Rule[] = [
  {
    name: 'PEM private key',
    // To its END line, or to the end of the text when that was cut off.
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
    replace: (_m, kind) => `-----BEGIN ${kind ?? ''}PRIVATE KEY----- ${REDACTED}`,
  },
  {
    name: 'AWS access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}\b/g,
    replace: whole,
  },
  { name: 'GitHub token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g, replace: whole },
  { name: 'GitHub fine-grained token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g, replace: whole },
  { name: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: whole },
  { name: 'Slack token', pattern: /\bx(?:ox[abposre]|app)-[A-Za-z0-9-]{10,}/g, replace: whole },
  { name: 'Slack webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, replace: whole },
  { name: 'Telegram bot token', pattern: /\b\d{6,12}:AA[A-Za-z0-9_-]{30,}/g, replace: whole },
  // Three base64url parts: a Discord bot token, and a JWT (which starts eyJ) is caught by the same.
  {
    name: 'Discord bot token or JWT',
    pattern: /\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{20,}/g,
    replace: whole,
  },
  { name: 'Anthropic or OpenAI key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g, replace: whole },
  { name: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g, replace: whole },
  { name: 'Stripe key', pattern: /\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}/g, replace: whole },
  { name: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: whole },
  // Switchboard's own: the admin token (sba_), the hook token (sbh_) and any other it makes.
  { name: 'Switchboard secret', pattern: /\bsb[a-z]_[A-Za-z0-9_-]{24,}/g, replace: whole },
  {
    name: 'Authorization header value',
    // A digit in the value: "Bearer authentication" is prose, a token has digits.
    pattern: /\b(Bearer|Basic)(\s+)((?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,})/g,
    replace: (_m, scheme, space) => `${scheme}${space}${REDACTED}`,
  },
  {
    name: 'credentials in a URL',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):([^\s@/]+)@/gi,
    replace: (_m, head) => `${head}:${REDACTED}@`,
  },
  // `password=x`, `--token=x`, `API_KEY=x`, `?access_token=x`: the name stays, the value goes.
  {
    name: 'secret assignment',
    pattern: new RegExp(String.raw`\b(${SECRET_NAME})(=)(${VALUE}{3,})`, 'gi'),
    replace: (_m, name, eq) => `${name}${eq}${REDACTED}`,
  },
  // `"password": "x"`, `token = 'x'`, `secret: "x"`: a quoted value after a secret's name.
  {
    name: 'quoted secret',
    pattern: new RegExp(String.raw`\b(${SECRET_NAME})(["']?\s*[=:]\s*)(["'])([^"'\n]{3,}?)\3`, 'gi'),
    replace: (_m, name, sep, quote) => `${name}${sep}${quote}${REDACTED}${quote}`,
  },
  // `--password hunter2`, `-p` is too short a name to be sure of.
  {
    name: 'secret flag',
    pattern: new RegExp(String.raw`(--${SECRET_NAME})(\s+)(${VALUE}{3,})`, 'gi'),
    replace: (_m, flag, space) => `${flag}${space}${REDACTED}`,
  },
]

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** One pass over `text` with every rule, then the literal secrets. */
export class Redactor {
  private literal: RegExp | null = null

  constructor(secrets: Iterable<string> = []) {
    this.setSecrets(secrets)
  }

  /** The hub's own secrets, redacted wherever they appear whatever their shape. */
  setSecrets(secrets: Iterable<string>): void {
    const kept = [...new Set([...secrets].map((s) => s.trim()).filter((s) => s.length >= MIN_LITERAL))]
    // Longest first: a secret that contains another is redacted whole.
    kept.sort((a, b) => b.length - a.length)
    this.literal = kept.length ? new RegExp(kept.map(escapeRegExp).join('|'), 'g') : null
  }

  redact(text: string): string {
    // Literal secrets first: a rule's replacement could split one and let its tail through.
    let out = this.literal ? text.replace(this.literal, REDACTED) : text
    for (const rule of SECRET_RULES)
      out = out.replace(rule.pattern, (match, ...groups) => rule.replace(match, ...(groups as string[])))
    return out
  }
}

/** `text` with every secret of a known shape redacted (no hub secrets: see Redactor). */
export function redactSecrets(text: string): string {
  return PATTERNS_ONLY.redact(text)
}

const PATTERNS_ONLY = new Redactor()
