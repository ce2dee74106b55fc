import { describe, expect, it } from 'vitest'
import { agentEnv, claudeEnv } from './env.js'

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

  it("gives each agent its own key and home, and neither the other's", () => {
    const from = {
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'a',
      CLAUDE_CONFIG_DIR: '/c',
      OPENAI_API_KEY: 'o',
      OPENAI_BASE_URL: 'https://proxy.example/v1',
      CODEX_HOME: '/x',
      TELEGRAM_BOT_TOKEN: 'secret',
    }
    expect(agentEnv('codex', from, hub)).toEqual({
      PATH: '/bin',
      OPENAI_API_KEY: 'o',
      OPENAI_BASE_URL: 'https://proxy.example/v1',
      CODEX_HOME: '/x',
      SWITCHBOARD_HOME: '/h',
      SWITCHBOARD_PORT: '7420',
      SWITCHBOARD_DRIVEN: '1',
    })
    const claude = claudeEnv(from, hub)
    expect(claude).toMatchObject({ ANTHROPIC_API_KEY: 'a', CLAUDE_CONFIG_DIR: '/c' })
    expect(Object.keys(claude).filter((k) => k.startsWith('OPENAI_') || k.startsWith('CODEX_'))).toEqual([])
    // Names the owner listed reach every agent (a Codex provider's own env_key).
    expect(agentEnv('codex', { MY_KEY: 'k' }, { ...hub, sessionEnv: ['MY_KEY'] }).MY_KEY).toBe('k')
  })
})
