// The subscriber name a session gets by default: its working folder's name, made into a name the hub
// protocol takes (letters, digits, . _ : -), whatever the folder is called.
import { createHash } from 'node:crypto'
import { basename } from 'node:path'

const MAX = 100

export function defaultSubscriberName(folder: string): string {
  const raw = basename(folder)
  // Accents come off Latin letters (Café → Cafe); everything else not allowed becomes a dash.
  const ascii = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
  // A name in another script keeps a trace of itself, so two such folders get two names.
  const lost = ascii.replace(/-/g, '').length < raw.replace(/[\s\p{P}]/gu, '').length / 2
  const tag = lost ? createHash('sha256').update(raw).digest('hex').slice(0, 8) : ''
  const name = [ascii.slice(0, MAX - 9), tag].filter(Boolean).join('-')
  return name || 'session'
}
