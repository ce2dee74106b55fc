// `switchboard bridge …` at the terminal: what it stores, and one clear line for each mistake.
import { spawn } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CLI } from '../helpers/home.js'
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
  // A forum supergroup where each session gets a topic of its own.
  expect(await home.cli('bridge', 'group', 'add', 'telegram', '-100456', '--topics')).toContain(
    'a thread per session',
  )
  expect(await home.cli('bridge', 'group', 'list')).toBe(
    'telegram\t-100123\twhen mentioned\ntelegram\t-100456\twhen mentioned\ta thread per session\n',
  )
  expect(JSON.parse(await home.cli('bridge', 'group', 'list', '--json'))).toEqual([
    { platform: 'telegram', id: '-100123', requireMention: true, topics: false },
    { platform: 'telegram', id: '-100456', requireMention: true, topics: true },
  ])
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

/** `switchboard …` with stdin and extra variables; resolves with how it ended and what it printed. */
function runCli(
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...world.home.env, ...options.env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  child.stdin.end(options.input ?? '')
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

it('takes a bot token from a file, stdin or the environment, and warns when it is on the command line', async () => {
  const { home } = world
  const stored = () => JSON.parse(readFileSync(join(home.dir, 'bridges.json'), 'utf8'))
  const tokenFile = join(home.dir, 'telegram-token')
  writeFileSync(tokenFile, '111:from-a-file\n', { mode: 0o600 })
  const fromFile = await runCli(['bridge', 'add', 'telegram', '--token-file', tokenFile])
  expect(fromFile).toMatchObject({ code: 0, stderr: '' })
  expect(stored().telegram.token).toBe('111:from-a-file')

  const fromStdin = await runCli(['bridge', 'add', 'discord', '--token', '-'], { input: 'from-stdin\n' })
  expect(fromStdin).toMatchObject({ code: 0, stderr: '' })
  expect(stored().discord.token).toBe('from-stdin')

  const fromEnv = await runCli(['bridge', 'add', 'slack'], {
    env: { SWITCHBOARD_SLACK_BOT_TOKEN: 'xoxb-from-env', SWITCHBOARD_SLACK_APP_TOKEN: 'xapp-from-env' },
  })
  expect(fromEnv).toMatchObject({ code: 0, stderr: '' })
  expect(stored().slack).toMatchObject({ token: 'xoxb-from-env', appToken: 'xapp-from-env' })
  const telegramEnv = await runCli(['bridge', 'add', 'telegram'], {
    env: { SWITCHBOARD_TELEGRAM_TOKEN: '222:from-env' },
  })
  expect(telegramEnv).toMatchObject({ code: 0, stderr: '' })
  expect(stored().telegram.token).toBe('222:from-env')

  const onArgv = await runCli(['bridge', 'add', 'telegram', '--token', '333:on-argv'])
  expect(onArgv.code).toBe(0)
  expect(stored().telegram.token).toBe('333:on-argv')
  expect(onArgv.stderr.trim().split('\n')).toHaveLength(1)
  expect(onArgv.stderr).toMatch(/^switchboard: .*other users .*can read it/)
  expect(onArgv.stderr).not.toContain('333:on-argv')

  const empty = await runCli(['bridge', 'add', 'discord', '--token', '-'], { input: '\n' })
  expect(empty.code).not.toBe(0)
  expect(empty.stderr.trim().split('\n')).toHaveLength(1)
  expect(empty.stderr).toMatch(/stdin/)
  const missing = await runCli(['bridge', 'add', 'discord', '--token-file', join(home.dir, 'nope')])
  expect(missing.code).not.toBe(0)
  expect(missing.stderr).toMatch(/--token-file/)
})
