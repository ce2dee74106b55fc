import { describe, expect, it } from 'vitest'
import { claudeEnv } from './env.js'

describe('the environment of a driven Claude Code process', () => {
  const hub = { home: '/h', port: 7420 }
  it('carries what the CLI needs and leaves the hub’s other variables out', () => {
    const env = claudeEnv(
      {
        PATH: '/bin',
        HOME: '/home/me',
        ANTHROPIC_API_KEY: 'k',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        TELEGRAM_BOT_TOKEN: 'secret',
        AWS_SECRET_ACCESS_KEY: 'secret',
        CLAUDE_CODE_ENTRYPOINT: 'cli',
        SWITCHBOARD_HOME: '/elsewhere',
      },
      hub,
    )
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/me',
      ANTHROPIC_API_KEY: 'k',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      SWITCHBOARD_HOME: '/h',
      SWITCHBOARD_PORT: '7420',
      SWITCHBOARD_DRIVEN: '1',
    })
  })

  it('passes names the owner listed, and AWS credentials only to a Bedrock session', () => {
    const from = { GH_TOKEN: 'g', AWS_REGION: 'eu', CLAUDE_CODE_USE_BEDROCK: '1' }
    expect(claudeEnv(from, { ...hub, sessionEnv: ['GH_TOKEN'] })).toMatchObject({
      GH_TOKEN: 'g',
      AWS_REGION: 'eu',
    })
    expect(claudeEnv({ AWS_REGION: 'eu' }, hub).AWS_REGION).toBeUndefined()
  })
})
