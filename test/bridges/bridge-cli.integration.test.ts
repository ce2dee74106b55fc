// `switchboard bridge …` at the terminal: what it stores, and one clear line for each mistake.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { homePerTest } from '../helpers/home-per-test.js'

const world = homePerTest()

it('stores the token 0600, never prints it, and keeps access settings when the token changes', async () => {
  const { home } = world
  const added = await home.cli(
    'bridge',
    'add',
    'telegram',
    '--token',
    '111:first-secret',
    '--policy',
    'allowlist',
  )
  expect(added).not.toContain('first-secret')
  await home.cli('bridge', 'group', 'add', 'telegram', '-100123')
  await home.cli('bridge', 'add', 'Telegram', '--token', '111:second-secret')
  const file = join(home.dir, 'bridges.json')
  expect(statSync(file).mode & 0o777).toBe(0o600)
  const stored = JSON.parse(readFileSync(file, 'utf8')).telegram
  expect(stored).toMatchObject({
    token: '111:second-secret',
    policy: 'allowlist',
    groups: [{ id: '-100123' }],
  })
  const listed = await home.cli('bridge', 'list', '--json')
  expect(listed).not.toContain('secret')
  expect(JSON.parse(listed)).toEqual([
    expect.objectContaining({ platform: 'telegram', state: 'hub not running' }),
  ])
  expect(await home.cli('bridge', 'group', 'list')).toBe('telegram\t-100123\twhen mentioned\n')
})

it('answers each mistake with one line naming it, and a non-zero exit', async () => {
  const { home } = world
  const cases: [string[], RegExp][] = [
    [
      ['bridge', 'add', 'matrix', '--token', 'x'],
      /platform "matrix": the platform is one of telegram, discord, slack/,
    ],
    [['bridge', 'add', 'telegram'], /telegram needs --token/],
    [['bridge', 'add', 'telegram', '--token', 'nonsense'], /a Telegram bot token looks like/],
    [
      ['bridge', 'add', 'discord', '--token', 'abc', '--api-root', 'http://127.0.0.1:1'],
      /--api-root is not a discord option/,
    ],
    [
      ['bridge', 'add', 'slack', '--bot-token', 'xapp-1', '--app-token', 'xoxb-1'],
      /--bot-token: a Slack bot token starts with xoxb-/,
    ],
    [
      ['bridge', 'add', 'telegram', '--token', '1:a', '--api-root', 'ftp://x'],
      /--api-root "ftp:\/\/x": must be an http\(s\) URL/,
    ],
    [
      ['bridge', 'add', 'telegram', '--token', '1:a', '--policy', 'nonsense'],
      /--policy: must be one of pairing, allowlist, disabled/,
    ],
    [['bridge', 'remove', 'discord'], /no discord bridge/],
  ]
  for (const [args, message] of cases) {
    const { code, stderr } = await home.cliFails(...args)
    expect(code, args.join(' ')).not.toBe(0)
    expect(stderr, args.join(' ')).toMatch(message)
    expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
  }
  await home.cli('bridge', 'add', 'telegram', '--token', '1:a')
  const later: [string[], RegExp][] = [
    [['bridge', 'set', 'telegram'], /nothing to change/],
    [
      ['bridge', 'set', 'telegram', '--chunk-limit', '99999'],
      /--chunk-limit: a whole number from 100 to 4096/,
    ],
    [['bridge', 'set', 'telegram', '--chunk-mode', 'words'], /--chunk-mode: must be one of length, newline/],
    [['bridge', 'group', 'add', 'telegram', 'general'], /a telegram group is -100/],
    [['bridge', 'group', 'remove', 'telegram', '-5'], /telegram has no group -5/],
  ]
  for (const [args, message] of later) {
    const { code, stderr } = await home.cliFails(...args)
    expect(code, args.join(' ')).not.toBe(0)
    expect(stderr, args.join(' ')).toMatch(message)
  }
})
