// A Claude Code process the hub starts carries this mark, so what the plugin or the hooks start inside
// it (`switchboard channel`, `switchboard hook`) knows the session is the hub's own: the hub already
// feeds it its topics and hears its answers, and a second identity would only take a copy of every
// event it cannot show.
export const DRIVEN_ENV = 'SWITCHBOARD_DRIVEN'

export function isHubDriven(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[DRIVEN_ENV] === '1'
}
