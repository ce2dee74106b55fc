// The environment a Claude Code process the hub starts gets: what the CLI needs to run and to reach
// its model, named here one by one, and nothing else the hub was started with (a bridge token, a
// cloud key, whatever sat in the shell that launched it). config.json `sessionEnv` adds names.
import { DRIVEN_ENV } from '../core/driven.js'
import { SETTINGS } from '../core/settings/table.js'

const NAMES = new Set([
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
  // Claude Code's own settings (its documented environment variables).
  'MAX_THINKING_TOKENS',
  'ENABLE_TOOL_SEARCH',
  'USE_BUILTIN_RIPGREP',
  'CLOUD_ML_REGION',
  'GOOGLE_APPLICATION_CREDENTIALS',
])
const PREFIXES = ['LC_', 'XDG_', 'ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'MCP_', 'BASH_', 'VERTEX_REGION_']
/** Set inside a Claude Code session: inherited, they would tell the CLI it runs nested in another. */
const NESTING = new Set([
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SSE_PORT',
  'CLAUDE_CODE_SESSION_ACCESS_TOKEN',
])

export function claudeEnv(
  from: NodeJS.ProcessEnv,
  hub: { home: string; port: number; sessionEnv?: string[] },
): NodeJS.ProcessEnv {
  const extra = new Set(hub.sessionEnv ?? [])
  // Bedrock reads the AWS credentials, and only a session told to use Bedrock needs them.
  const bedrock = !!from.CLAUDE_CODE_USE_BEDROCK
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || NESTING.has(name)) continue
    const wanted =
      NAMES.has(name) ||
      extra.has(name) ||
      PREFIXES.some((p) => name.startsWith(p)) ||
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
