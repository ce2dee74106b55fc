// The environment a coding agent's process the hub starts gets: what every agent needs to run, and
// what its own agent needs to reach its model, named here one by one per agent, and nothing else the
// hub was started with (a bridge token, another agent's key, whatever sat in the shell that launched
// it). config.json `sessionEnv` adds names, for every agent.
import type { DrivenAgent } from '../core/agents.js'
import { DRIVEN_ENV } from '../core/driven.js'
import { SETTINGS } from '../core/settings/table.js'

/** What any agent's process needs: the system, the locale, a proxy and its certificates. */
const COMMON = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'EDITOR',
  'VISUAL',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
])
const COMMON_PREFIXES = ['LC_', 'XDG_']

/** Each agent's own variables: its settings, its home, its model's key. */
const OWN: Record<DrivenAgent, { names: Set<string>; prefixes: string[] }> = {
  // Claude Code's documented environment variables.
  claude: {
    names: new Set([
      'MAX_THINKING_TOKENS',
      'ENABLE_TOOL_SEARCH',
      'USE_BUILTIN_RIPGREP',
      'CLOUD_ML_REGION',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ]),
    prefixes: ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'MCP_', 'BASH_', 'VERTEX_REGION_'],
  },
  // Codex's home (CODEX_HOME, where its config, login and sessions are) and the OpenAI API's key
  // and address, which its default provider reads. A provider's own `env_key` is named in sessionEnv.
  codex: { names: new Set(['OPENAI_API_KEY', 'OPENAI_BASE_URL']), prefixes: ['CODEX_'] },
  // Gemini CLI's own (GEMINI_API_KEY, GEMINI_CLI_HOME, GEMINI_PATH) and Google's, which it reads for
  // a key, an address, Vertex AI and a service account.
  gemini: {
    names: new Set([
      'GOOGLE_API_KEY',
      'GOOGLE_GEMINI_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GOOGLE_CLOUD_LOCATION',
      'GOOGLE_GENAI_USE_VERTEXAI',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ]),
    prefixes: ['GEMINI_'],
  },
  // OpenCode's own; its providers' keys are whichever the person configured, named in sessionEnv.
  opencode: { names: new Set(), prefixes: ['OPENCODE_'] },
}

/** Set inside a Claude Code session: inherited, they would tell the CLI it runs nested in another. */
const NESTING = new Set([
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SSE_PORT',
  'CLAUDE_CODE_SESSION_ACCESS_TOKEN',
])

export interface SessionEnvSettings {
  home: string
  port: number
  sessionEnv?: string[]
}

/** A driven Claude Code process's environment. */
export function claudeEnv(from: NodeJS.ProcessEnv, hub: SessionEnvSettings): NodeJS.ProcessEnv {
  return agentEnv('claude', from, hub)
}

export function agentEnv(
  agent: DrivenAgent,
  from: NodeJS.ProcessEnv,
  hub: SessionEnvSettings,
): NodeJS.ProcessEnv {
  const extra = new Set(hub.sessionEnv ?? [])
  const own = OWN[agent]
  // Bedrock reads the AWS credentials, and only a Claude Code session told to use Bedrock needs them.
  const bedrock = agent === 'claude' && !!from.CLAUDE_CODE_USE_BEDROCK
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || NESTING.has(name)) continue
    const wanted =
      COMMON.has(name) ||
      own.names.has(name) ||
      extra.has(name) ||
      [...COMMON_PREFIXES, ...own.prefixes].some((p) => name.startsWith(p)) ||
      (bedrock && name.startsWith('AWS_'))
    if (wanted) env[name] = value
  }
  // A channel inside a driven session finds this hub, not the default one.
  env[SETTINGS.home.variable] = hub.home
  env[SETTINGS.port.variable] = String(hub.port)
  // … and stays off it: the plugin's channel and the hooks it starts do not subscribe (core/driven.ts).
  env[DRIVEN_ENV] = '1'
  return env
}
